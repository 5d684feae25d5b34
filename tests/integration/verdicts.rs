//! One real C program per verdict, compiled by the real compiler and judged by the real
//! binary: the verdict, its message and the exit code.

use crate::common;

use common::*;

/// The course setting that adds the strict tier.
const STRICT_TIER: &str = "strict_sanitizers = [\"address\"]";

/// Grades `program` as the `sum` exercise; returns the verdicts, the first case's
/// message and the exit code.
fn grade(program: &str) -> (Vec<String>, String, Option<i32>) {
    let course = sum_course(program);
    let (document, code) = json_results(course.path(), &["sum"]);
    let message = document["exercises"][0]["cases"][0]["message"]
        .as_str()
        .expect("message")
        .to_string();
    (verdicts(&document, 0), message, code)
}

#[test]
fn passing_program_passes_with_exit_0() {
    let (verdicts, _, code) = grade("passing");
    assert_eq!(verdicts, ["passed", "passed"]);
    assert_eq!(code, Some(0));
}

#[test]
fn wrong_output_fails_with_exit_1() {
    let (verdicts, message, code) = grade("wrong_output");
    assert_eq!(verdicts, ["wrong_output", "wrong_output"]);
    assert!(message.contains("differs"), "{message}");
    assert_eq!(code, Some(1));
}

/// docs/student-guide.md, "A program that loops": a silent loop after all its input, on scanf's EOF
/// (`while (scanf(...))`) or on a counter that never moves, is said to never end, with
/// both causes named and neither blamed: nothing in what it did tells them apart.
#[test]
fn a_silent_endless_loop_names_both_causes_and_blames_neither() {
    for program in ["timeout", "counter_never_moves"] {
        let (verdicts, message, code) = grade(program);
        assert_eq!(verdicts[0], "timeout", "{program}");
        assert!(
            message.contains("with all its input read, printing nothing that repeats")
                && message.contains("counter never changes")
                && message.contains("scanf returns (EOF, -1)"),
            "{program}: {message}"
        );
        assert!(
            !message.contains("goes on reading after"),
            "{program}: {message}"
        );
        assert_eq!(code, Some(1));
    }
}

/// docs/student-guide.md, "A program that loops": a program that prints the same prompt again
/// and again once its input has ended is looping on scanf's EOF, and is told so.
#[test]
fn output_flood_is_stopped_at_the_cap() {
    let (verdicts, message, code) = grade("flood");
    assert_eq!(verdicts, ["output_limit", "output_limit"]);
    assert!(
        message.contains("4 KiB")
            && message.contains("the same again and again: a loop that goes on reading after the input has ended (scanf returns EOF"),
        "{message}"
    );
    assert_eq!(code, Some(1));
}

#[test]
fn crash_names_the_signal() {
    let (verdicts, message, _) = grade("crash");
    assert_eq!(verdicts, ["crashed", "crashed"]);
    assert!(
        message.contains("SIGSEGV") && message.contains("out-of-bounds"),
        "{message}"
    );
}

#[test]
fn right_output_with_nonzero_status_fails() {
    let (verdicts, message, _) = grade("nonzero_exit");
    assert_eq!(verdicts, ["nonzero_exit", "nonzero_exit"]);
    assert!(message.contains("status 3"), "{message}");
}

#[test]
fn out_of_bounds_read_is_caught_by_the_sanitizer() {
    let (verdicts, message, _) = grade("out_of_bounds");
    assert_eq!(verdicts, ["sanitizer", "sanitizer"]);
    assert!(
        message.contains("exercises/sum.c:13"),
        "file:line quoted: {message}"
    );
    assert!(message.contains("out of bounds"), "{message}");
}

#[test]
fn compile_error_runs_nothing_and_shows_the_compiler() {
    let course = sum_course("compile_error");
    let (document, code) = json_results(course.path(), &["sum"]);
    assert_eq!(document["exercises"][0]["status"], "compile_error");
    assert_eq!(verdicts(&document, 0), ["not_run", "not_run"]);
    assert_eq!(code, Some(1));

    let output = clings(course.path()).args(["run", "sum"]).output().unwrap();
    let stdout = stdout_of(&output);
    assert!(
        stdout.contains("exercises/sum.c:7:"),
        "diagnostics with file:line: {stdout}"
    );
    assert!(stdout.contains("compile_error"), "{stdout}");
    assert!(
        !stdout.contains('\x1b'),
        "no colour codes when not a terminal: {stdout}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn warnings_are_shown_but_do_not_fail() {
    let course = sum_course("warning");
    let output = clings(course.path()).args(["run", "sum"]).output().unwrap();
    let stdout = stdout_of(&output);
    assert!(stdout.contains("warning: unused variable"), "{stdout}");
    assert_eq!(output.status.code(), Some(0), "{stdout}");
}

#[test]
fn the_program_is_what_the_oom_killer_picks_first() {
    // A run's cgroup out of memory must end the program, not the helper that reports on it.
    let (verdicts, message, _) = grade("oom_first");
    assert_eq!(verdicts, ["passed", "passed"], "{message}");
}

/// `passing.c` with its `printf` changed to `format`.
fn printing(format: &str) -> String {
    std::fs::read_to_string(repo().join("tests/programs/passing.c"))
        .unwrap()
        .replace(
            r#"printf("%d\n", a + b);"#,
            &format!("printf({format:?}, a + b);"),
        )
}

/// docs/student-guide.md, "How output is compared": output is compared by `lines` (trailing
/// blanks and blank lines ignored) unless the course (`[defaults]`) or a case asks for `exact`
/// or `tokens`; a case's choice wins.
#[test]
fn compare_mode_is_the_cases_else_the_courses_else_lines() {
    let course = sum_course("passing");
    let path = course.path();
    let trailing = printing("%d \n\n"); // right but for trailing blanks
    let indented = printing("  %d\n"); // right but for the layout
    let set_case = |case: &str, mode: Option<&str>| {
        let config = path.join(format!("fixtures/sum/{case}.toml"));
        let text = std::fs::read_to_string(&config).unwrap();
        let mut text: String = text
            .lines()
            .filter(|line| !line.starts_with("compare"))
            .map(|line| format!("{line}\n"))
            .collect();
        if let Some(mode) = mode {
            text.push_str(&format!("compare = \"{mode}\"\n"));
        }
        std::fs::write(config, text).unwrap();
    };
    let info = path.join("info.toml");
    let plain_info = std::fs::read_to_string(&info).unwrap();
    let set_course = |mode: Option<&str>| {
        let text = match mode {
            Some(mode) => plain_info.replace(
                "[defaults]\n",
                &format!("[defaults]\ncompare = \"{mode}\"\n"),
            ),
            None => plain_info.clone(),
        };
        std::fs::write(&info, text).unwrap();
    };
    // (course, first case, second case, program) and the verdicts of the two cases.
    let settings = [
        (
            None,
            Some("exact"),
            None,
            &trailing,
            ["wrong_output", "passed"],
        ),
        (
            None,
            Some("tokens"),
            None,
            &indented,
            ["passed", "wrong_output"],
        ),
        (Some("tokens"), None, None, &indented, ["passed", "passed"]),
        (
            Some("exact"),
            Some("lines"),
            None,
            &trailing,
            ["passed", "wrong_output"],
        ),
    ];
    for (course_mode, first, second, program, expected) in settings {
        set_course(course_mode);
        set_case("01_small", first);
        set_case("02_negative", second);
        std::fs::write(path.join("exercises/sum.c"), program).unwrap();
        let (document, _) = json_results(path, &["sum"]);
        assert_eq!(
            verdicts(&document, 0),
            expected,
            "course {course_mode:?}, cases {first:?} {second:?}, printing {:?}",
            program
                .lines()
                .find(|line| line.contains("printf"))
                .unwrap()
        );
    }
}

/// docs/course-authoring.md, "An exercise's own flags": a check an exercise's
/// `without_sanitizers` names is left out of its builds, and only that one.
#[test]
fn an_exercise_goes_without_the_sanitizer_checks_it_names() {
    let (found, message, code) = grade("pointer_overflow");
    assert_eq!(found, ["sanitizer", "sanitizer"], "{message}");
    assert!(message.contains("pointer index expression"), "{message}");
    assert_eq!(code, Some(1));

    let course = sum_course("pointer_overflow");
    add_key_to_sum(course.path(), "without_sanitizers = [\"pointer-overflow\"]");
    let (document, code) = json_results(course.path(), &["sum"]);
    assert_eq!(verdicts(&document, 0), ["passed", "passed"], "{document}");
    assert_eq!(code, Some(0));

    // The other checks of UBSan stay: an index past the array is still caught.
    put_program(course.path(), "out_of_bounds");
    let (document, _) = json_results(course.path(), &["sum"]);
    assert_eq!(
        verdicts(&document, 0),
        ["sanitizer", "sanitizer"],
        "{document}"
    );

    // A check the compiler does not know: dev check names the exercise, the keys and what
    // the compiler said, not only that nothing builds.
    let info = course.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(
        &info,
        text.replace("\"pointer-overflow\"", "\"pointer-overflaw\""),
    )
    .unwrap();
    let checked = clings(course.path())
        .args(["dev", "check", "sum"])
        .output()
        .unwrap();
    assert_eq!(checked.status.code(), Some(1));
    let said = stdout_of(&checked);
    assert!(
        said.contains("sum: the compiler refuses its `flags` or `without_sanitizers`")
            && said.contains("pointer-overflaw"),
        "{said}"
    );
}

/// docs/course-authoring.md, "The strict tier": a program that passes every case is built again
/// with the course's strict sanitizers and passes only if it passes that build too.
#[test]
fn the_strict_build_catches_what_the_fast_one_cannot_see() {
    let (fast, _, code) = grade("string_without_room");
    assert_eq!(fast, ["passed", "passed"], "UBSan alone does not see it");
    assert_eq!(code, Some(0));

    let course = sum_course("string_without_room");
    add_to_defaults(course.path(), STRICT_TIER);
    let (document, code) = json_results(course.path(), &["sum"]);
    // "1" fits with its '\0'; "-5" does not.
    assert_eq!(
        verdicts(&document, 0),
        ["passed", "sanitizer"],
        "{document}"
    );
    let message = document["exercises"][0]["cases"][1]["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains("global-buffer-overflow") && message.contains("'\\0'"),
        "{message}"
    );
    assert_eq!(code, Some(1));

    // A right program passes both builds.
    let course = sum_course("passing");
    add_to_defaults(course.path(), STRICT_TIER);
    let (document, code) = json_results(course.path(), &["sum"]);
    assert_eq!(verdicts(&document, 0), ["passed", "passed"], "{document}");
    assert_eq!(code, Some(0));
}

/// docs/performance.md, "The strict tier": a strict run can change a verdict only where the
/// strict build has not passed the case before. A second `clings test` of the same file
/// runs the strict tier on no case it passed; a case whose input changed runs again; a
/// failure is never remembered: it runs again, and its report is made from that run.
#[test]
fn the_strict_tier_runs_only_where_it_can_change_a_verdict() {
    /// Verdicts, and how many cases ran (both builds' together).
    fn graded(course: &std::path::Path) -> (Vec<String>, u64, String) {
        let output = clings(course)
            .args(["test", "sum", "--format", "json"])
            .env("CLINGS_TIMINGS", "1")
            .output()
            .unwrap();
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let stderr = stderr_of(&output);
        let runs = stderr
            .lines()
            .find_map(|line| line.strip_prefix("run "))
            .and_then(|line| line.split_whitespace().nth(1))
            .and_then(|count| count.parse().ok())
            .unwrap_or_else(|| panic!("no run count: {stderr}"));
        let message = document["exercises"][0]["cases"][1]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        (verdicts(&document, 0), runs, message)
    }
    let course = sum_course("passing");
    add_to_defaults(course.path(), STRICT_TIER);
    let passed = vec!["passed".to_string(), "passed".to_string()];
    assert_eq!(graded(course.path()).0, passed);
    // Two plain runs, and no strict one: the strict build passed both cases before.
    let (verdicts, runs, _) = graded(course.path());
    assert_eq!((verdicts, runs), (passed.clone(), 2));
    // A hint is only shown: the case's verdict does not depend on it. Its arguments do.
    let settings = course.path().join("fixtures/sum/01_small.toml");
    let add = |line: &str| {
        let text = std::fs::read_to_string(&settings).unwrap();
        std::fs::write(&settings, format!("{text}{line}\n")).unwrap();
    };
    add("hint = \"Add the two numbers.\"");
    let (verdicts, runs, _) = graded(course.path());
    assert_eq!((verdicts, runs), (passed.clone(), 2), "a hint written");
    add("args = [\"--verbose\"]");
    let (verdicts, runs, _) = graded(course.path());
    assert_eq!(
        (verdicts, runs),
        (passed.clone(), 3),
        "the case with arguments runs both builds"
    );
    std::fs::write(course.path().join("fixtures/sum/02_negative.in"), "-5 4\n").unwrap();
    std::fs::write(course.path().join("fixtures/sum/02_negative.out"), "-1\n").unwrap();
    let (verdicts, runs, _) = graded(course.path());
    assert_eq!(
        (verdicts, runs),
        (passed, 3),
        "the changed case runs both builds"
    );

    let course = sum_course("string_without_room");
    add_to_defaults(course.path(), STRICT_TIER);
    let first = graded(course.path());
    assert_eq!(first.0, ["passed", "sanitizer"]);
    assert_eq!(first.1, 4);
    let again = graded(course.path());
    // The strict pass of the first case is remembered, the failure of the second is not.
    assert_eq!((&again.0, again.1), (&first.0, 3));
    assert!(again.2.contains("global-buffer-overflow"), "{}", again.2);
}

/// docs/security.md, "Limits": under the strict tier (AddressSanitizer) every process of a run is
/// held to the memory limit, a forked child too, which has no AddressSanitizer RSS check
/// (it is a thread, which fork does not copy). As a normal user there is no cgroup: the
/// limits on data and address space past what an AddressSanitizer build maps at start
/// stop the child that touches 768 MiB under 64, and AddressSanitizer says so. A right
/// program still passes the strict build: what it maps at start was measured right.
#[test]
fn the_strict_tier_holds_a_forked_child_to_the_memory_limit_as_a_user_and_as_root() {
    for unprivileged in [true, false] {
        for (program, expected) in [
            ("strict_fork_hog", ["memory_limit", "memory_limit"]),
            ("passing", ["passed", "passed"]),
        ] {
            let Some(document) = strict_tier_under_64_mib(program, unprivileged) else {
                return;
            };
            let context = format!("{program}, unprivileged={unprivileged}: {document}");
            assert_eq!(verdicts(&document, 0), expected, "{context}");
            if expected[0] == "memory_limit" {
                let message = document["exercises"][0]["cases"][0]["message"]
                    .as_str()
                    .unwrap();
                assert!(message.contains("64 MiB"), "{context}");
            }
        }
    }
}

/// docs/security.md, "Limits": what AddressSanitizer keeps from reuse to catch a use after free
/// (its quarantine, 256 MiB by default) is not the program's memory: held to a quarter of the
/// limit, a program that frees every mebibyte it allocates passes under 64 MiB.
#[test]
fn the_strict_tier_does_not_count_what_address_sanitizer_keeps_from_reuse() {
    for unprivileged in [true, false] {
        let Some(document) = strict_tier_under_64_mib("frees_what_it_allocates", unprivileged)
        else {
            return;
        };
        assert_eq!(
            verdicts(&document, 0),
            ["passed", "passed"],
            "unprivileged={unprivileged}: {document}"
        );
    }
}

/// `tests/programs/<program>.c` graded as the `sum` exercise with the strict tier under a
/// memory limit of 64 MiB, by clings as a normal user or as the test's own user; `None`
/// when it cannot run as a normal user (see [`require`]).
fn strict_tier_under_64_mib(program: &str, unprivileged: bool) -> Option<serde_json::Value> {
    let course = sum_course(program);
    // What these tests judge is memory; on two busy cores an AddressSanitizer build that
    // touches 512 MiB can take more than the default second.
    add_to_defaults(course.path(), &format!("{STRICT_TIER}\nmemory_mb = 64"));
    let info = course.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(
        &info,
        text.replace("time_limit_ms = 1000", "time_limit_ms = 20000"),
    )
    .unwrap();
    let mut command = match unprivileged {
        true => clings_unprivileged(course.path())?,
        false => clings_process(course.path()),
    };
    let output = command
        .args(["test", "sum", "--format", "json"])
        .output()
        .unwrap();
    let document = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", stderr_of(&output)));
    Some(document)
}

/// docs/security.md, "Warm sandboxes": a worker starts one sandbox and runs every program of the
/// grading there, the file's first build and its strict build alike, whether the builds
/// are made by this grading or found made; each runs under the same name (`argv[0]`), and
/// the strict build still catches what only it can see.
#[test]
fn one_sandbox_serves_a_worker_s_every_program_under_one_name() {
    for (program, expected) in [
        ("named_program", ["passed", "passed"]),
        ("string_without_room", ["passed", "sanitizer"]),
    ] {
        let course = sum_course(program);
        add_to_defaults(course.path(), STRICT_TIER);
        let test = || {
            clings(course.path())
                .args([
                    "--jobs",
                    "1",
                    "--require-isolation",
                    "test",
                    "sum",
                    "--format",
                    "json",
                ])
                .env("CLINGS_TIMINGS", "1")
                .output()
                .unwrap()
        };
        // The first grading makes both builds; the second finds them made.
        for grading in ["first", "second"] {
            let output = test();
            let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(verdicts(&document, 0), expected, "{program}: {document}");
            let timings = stderr_of(&output);
            let sandboxes = timings
                .lines()
                .find_map(|line| line.strip_prefix("sandbox start"))
                .and_then(|counts| counts.split_whitespace().nth(1))
                .unwrap_or_else(|| panic!("no sandbox count in {timings}"));
            assert_eq!(sandboxes, "1", "{program}, {grading} grading: {timings}");
        }
    }
}
