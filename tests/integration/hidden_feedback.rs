//! Issue 35: how much a grading tells of its hidden cases, by `--hidden-feedback`
//! (docs/grading-and-ci.md, "How much a grading tells of the hidden cases"; docs/security.md,
//! "What a submission learns of the hidden cases"). Two submissions that differ on a hidden
//! case only, graded by the real binary in every format: with `none` every report is the
//! same, with `total` one line per exercise tells them apart, with `verdicts` each case
//! does. Gradescope shows students nothing of a hidden case before publishing, and a public
//! case shows the same whatever the hidden ones do.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;

/// The hidden cases of `sum` below: both programs pass the first, only the right one the
/// second.
const HIDDEN: [(&str, &str, &str); 2] = [
    ("h1_small", "2 2\n", "4\n"),
    ("h2_big", "4000 321\n", "4321\n"),
];

/// The test course with `program` (a file of `tests/`) as the submission's `sum.c`, the
/// solution as its `hello.c`, and [`HIDDEN`] in `hidden/sum/`.
struct Submission {
    root: tempfile::TempDir,
}

impl Submission {
    fn new(program: &str) -> Submission {
        let root = ci_layout(
            &repo().join("tests/course"),
            &[(program, "sum.c"), ("course/solutions/hello.c", "hello.c")],
            "sum",
        );
        for (name, input, expected) in HIDDEN {
            let hidden = root.path().join("hidden/sum");
            std::fs::write(hidden.join(format!("{name}.in")), input).unwrap();
            std::fs::write(hidden.join(format!("{name}.out")), expected).unwrap();
        }
        Submission { root }
    }

    /// The submission that passes every case.
    fn right() -> Submission {
        Submission::new("programs/passing.c")
    }

    /// The submission that fails `h2_big` and nothing else.
    fn wrong_on_a_hidden_case() -> Submission {
        Submission::new("programs/hidden/wrong_above_a_thousand.c")
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    /// `clings test --submission ../submission` plus `args`, with the step summary in
    /// `summary.md`.
    fn test(&self, args: &[&str]) -> Output {
        clings(&self.path("course"))
            .args(["test", "--submission", "../submission"])
            .args(args)
            .env("GITHUB_STEP_SUMMARY", self.path("summary.md"))
            .output()
            .unwrap()
    }

    /// Every report of a grading with `--hidden-feedback feedback`, by name, times and
    /// GitHub's random token taken out: human (and what `test` said on stderr), json,
    /// junit, gradescope, github (its stdout, and its step summary), each with the exit
    /// status; and a class of one graded by `grade`: its gradebook, page and stderr.
    fn reports(&self, feedback: &str) -> Vec<(&'static str, String)> {
        let hidden = ["--fixtures", "../hidden", "--hidden-feedback", feedback];
        let mut reports = Vec::new();
        let human = self.test(&hidden);
        reports.push(("human", report_of(&human)));
        reports.push(("stderr of test", stderr_of(&human)));
        for format in ["json", "junit", "gradescope"] {
            let output = self.test(&[&hidden[..], &["--format", format]].concat());
            reports.push((format, report_of(&output)));
        }
        let _ = std::fs::remove_file(self.path("summary.md"));
        let github = self.test(&[&hidden[..], &["--format", "github"]].concat());
        reports.push(("github", report_of(&github)));
        let summary = std::fs::read_to_string(self.path("summary.md")).unwrap();
        reports.push(("step summary", summary));
        let class = self.path("class/student");
        std::fs::create_dir_all(&class).unwrap();
        for file in ["sum.c", "hello.c"] {
            std::fs::copy(self.path("submission").join(file), class.join(file)).unwrap();
        }
        let grade = clings(&self.path("course"))
            .args(["grade", "../class"])
            .args(hidden)
            .args(["--out", "../book", "--html", "../report.html"])
            .output()
            .unwrap();
        assert_eq!(grade.status.code(), Some(0), "{}", stderr_of(&grade));
        reports.push(("stderr of grade", stderr_of(&grade)));
        for file in ["book/grades.json", "book/grades.csv", "report.html"] {
            reports.push((file, std::fs::read_to_string(self.path(file)).unwrap()));
        }
        reports
            .into_iter()
            .map(|(name, text)| (name, without_times(&text)))
            .collect()
    }
}

/// What a grading printed, and its exit status.
fn report_of(output: &Output) -> String {
    let stdout = stdout_of(output);
    assert!(
        !stdout.contains('\x1b'),
        "colour without a terminal: {stdout:?}"
    );
    format!("{stdout}\nexit status {:?}", output.status.code())
}

/// `text` with each time a report gives (`12 ms` and the blanks that align it,
/// `"time_ms": 12`, JUnit's `time="0.012"`, `grade`'s `in 0.4 s`) as `T`, and GitHub's
/// random stop-commands token as `TOKEN`.
fn without_times(text: &str) -> String {
    let token = text
        .lines()
        .find_map(|line| line.strip_prefix("::stop-commands::"));
    let text = token.map_or(text.to_string(), |token| text.replace(token, "TOKEN"));
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let end = rest[at..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(rest.len(), |length| at + length);
        let (before, number, after) = (&rest[..at], &rest[at..end], &rest[end..]);
        let unit = [" ms", " s"].iter().any(|unit| {
            after
                .strip_prefix(unit)
                .is_some_and(|next| !next.starts_with(|c: char| c.is_alphanumeric()))
        });
        let time = unit
            || before.ends_with("\"time_ms\": ")
            || before.ends_with(" time=\"")
            || before.ends_with(" timestamp=\"");
        match time {
            true => {
                out.push_str(before.trim_end_matches(' '));
                out.push_str(if unit { " T" } else { "T" });
            }
            false => {
                out.push_str(before);
                out.push_str(number);
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The lines in which two reports differ, paired; the reports have as many lines.
fn differing_lines<'a>(name: &str, one: &'a str, other: &'a str) -> Vec<(&'a str, &'a str)> {
    let (one_lines, other_lines): (Vec<&str>, Vec<&str>) =
        (one.lines().collect(), other.lines().collect());
    assert_eq!(
        one_lines.len(),
        other_lines.len(),
        "{name}: not line for line:\n{one}\n---\n{other}"
    );
    one_lines
        .into_iter()
        .zip(other_lines)
        .filter(|(one, other)| one != other)
        .collect()
}

fn report<'a>(reports: &'a [(&str, String)], name: &str) -> &'a str {
    let found = reports.iter().find(|(report, _)| *report == name);
    &found.unwrap_or_else(|| panic!("no report {name}")).1
}

/// With `none`, the default, a program that fails a hidden case gets every report, the
/// exit status and the gradebook a program that passes it gets, byte for byte but the
/// times: the same as a grading without hidden cases, but for one line on stderr that says
/// they are not run. With `verdicts`, the same two programs get different reports: what
/// `none` keeps to itself.
#[test]
fn none_tells_nothing_of_the_hidden_cases() {
    let (right, wrong) = (Submission::right(), Submission::wrong_on_a_hidden_case());
    let (told_right, told_wrong) = (right.reports("none"), wrong.reports("none"));
    for ((name, right), (_, wrong)) in told_right.iter().zip(&told_wrong) {
        assert_eq!(right, wrong, "{name} tells the hidden case apart");
        for (case, ..) in HIDDEN {
            assert!(!wrong.contains(case), "{name} names {case}:\n{wrong}");
        }
    }
    assert!(report(&told_wrong, "human").ends_with("exit status Some(0)"));
    // As if there were no hidden case at all.
    let without = wrong.test(&[]);
    assert_eq!(
        without_times(&report_of(&without)),
        report(&told_wrong, "human")
    );
    let note = report(&told_wrong, "stderr of test");
    assert!(
        note.contains("the hidden cases in ../hidden are not run"),
        "{note}"
    );
    let told = |submission: &Submission| submission.reports("verdicts");
    let (verdicts_right, verdicts_wrong) = (told(&right), told(&wrong));
    for name in [
        "human",
        "json",
        "junit",
        "gradescope",
        "github",
        "book/grades.json",
    ] {
        assert_ne!(
            report(&verdicts_right, name),
            report(&verdicts_wrong, name),
            "{name}: the programs differ on a hidden case"
        );
    }
}

/// With `total`, the two programs' reports differ in one line for the one exercise with
/// hidden cases, its count of them passed (1/2 against 2/2), in every report that tells
/// it, and in nothing else: no hidden case is named, and the exit status, points and
/// statuses count the public cases.
#[test]
fn total_tells_one_line_per_exercise() {
    let wrong = Submission::wrong_on_a_hidden_case();
    let told_right = Submission::right().reports("total");
    let told_wrong = wrong.reports("total");
    let tally = [
        ("human", "  hidden cases: 1/2 passed"),
        ("github", "  hidden cases: 1/2 passed"),
        ("json", "        \"passed\": 1,"),
        ("book/grades.json", "                \"passed\": 1,"),
        (
            "junit",
            "<property name=\"hidden_cases_passed\" value=\"1/2\"/>",
        ),
        ("step summary", "| sum | 1/2 |"),
        (
            "gradescope",
            "\"output\": \"Points: 4/4\\nsum: hidden cases: 1/2 passed\",",
        ),
    ];
    for ((name, right), (_, wrong)) in told_right.iter().zip(&told_wrong) {
        for (case, ..) in HIDDEN {
            assert!(!wrong.contains(case), "{name} names {case}:\n{wrong}");
        }
        let differing = differing_lines(name, wrong, right);
        match tally.iter().find(|(report, _)| report == name) {
            Some((_, line)) => {
                assert_eq!(differing.len(), 1, "{name}: {differing:?}");
                let (wrong_line, right_line) = differing[0];
                assert_eq!(wrong_line.trim(), line.trim(), "{name}");
                assert_eq!(
                    right_line,
                    wrong_line.replace("1/2", "2/2").replace(": 1,", ": 2,"),
                    "{name}"
                );
            }
            None => assert!(differing.is_empty(), "{name}: {differing:?}"),
        }
    }
    let human = report(&told_wrong, "human");
    assert!(human.ends_with("exit status Some(0)"), "{human}");
    assert!(
        human.contains("2/2 cases passed, 3/3 points"),
        "the public cases: {human}"
    );
    let hidden = ["--fixtures", "../hidden", "--hidden-feedback", "total"];
    let output = wrong.test(&[&hidden[..], &["--format", "json"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        json["exercises"][0]["hidden_cases"],
        serde_json::json!({"passed": 1, "cases": 2})
    );
    assert_eq!(
        json["exercises"][1]["hidden_cases"],
        serde_json::Value::Null
    );
    assert_eq!(
        (&json["success"], &json["points"]),
        (&true.into(), &4.into())
    );
}

/// With `verdicts`, the grading that counts, each hidden case is told: its name, verdict
/// and points, in every report, counted in the totals and the exit status.
#[test]
fn verdicts_tells_each_hidden_case() {
    let told = Submission::wrong_on_a_hidden_case().reports("verdicts");
    let human = report(&told, "human");
    assert!(human.ends_with("exit status Some(1)"), "{human}");
    let line = |name: &str| {
        human
            .lines()
            .find(|line| line.contains(&format!("{name} (hidden)")))
            .unwrap_or_else(|| panic!("{name}: {human}"))
            .to_string()
    };
    assert!(line("h1_small").trim_start().starts_with("passed"));
    assert!(line("h2_big").trim_start().starts_with("wrong_output"));
    assert!(human.contains("3/4 cases passed, 4/5 points"), "{human}");
    for name in [
        "json",
        "junit",
        "gradescope",
        "github",
        "step summary",
        "book/grades.json",
    ] {
        let text = report(&told, name);
        // The step summary escapes a case's name for Markdown, `_` too.
        let shown = match name {
            "step summary" => "h2&#95;big",
            _ => "h2_big",
        };
        assert!(text.contains(shown), "{name}: {text}");
    }
    let github = report(&told, "github");
    assert!(
        github.contains("::error file=sum.c,title=sum h2_big%3A wrong_output::"),
        "{github}"
    );
    assert!(!human.contains("hidden cases:"), "{human}");
}

/// Gradescope shows a student the submission's output and the public tests at once: with
/// a hidden case failed, they are what a grading without hidden cases gives. The hidden
/// tests are `after_published`, and there is no top-level score: Gradescope totals the
/// tests, a total it withholds while any test is hidden.
#[test]
fn gradescope_shows_nothing_of_a_hidden_case_before_publishing() {
    let submission = Submission::wrong_on_a_hidden_case();
    hello_as_practice(&submission.path("course"));
    let results = |args: &[&str]| {
        let output = submission.test(&[args, &["--format", "gradescope"]].concat());
        assert_ne!(output.status.code(), Some(2), "{}", stderr_of(&output));
        gradescope_results(&stdout_of(&output))
    };
    let graded = results(&["--fixtures", "../hidden", "--hidden-feedback", "verdicts"]);
    let without = results(&[]);
    assert_eq!(graded["output"], without["output"]);
    assert_eq!(
        graded["output"],
        "Points: 3/3\nPractice, not counted: After class 1/1"
    );
    for results in [&graded, &without] {
        assert!(results.get("score").is_none(), "{results}");
    }
    let tests = graded["tests"].as_array().unwrap();
    let (hidden, public): (Vec<&serde_json::Value>, Vec<&serde_json::Value>) = tests
        .iter()
        .partition(|test| test["visibility"] == "after_published");
    let names: Vec<&str> = hidden
        .iter()
        .map(|test| test["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["sum/h1_small", "sum/h2_big"]);
    assert_eq!(hidden[1]["status"], "failed");
    let public: Vec<serde_json::Value> = public.into_iter().cloned().collect();
    assert_eq!(&public, without["tests"].as_array().unwrap());
    // The total, the tests' sum, counts the hidden case passed.
    let total: f64 = tests
        .iter()
        .map(|test| test["score"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 4.0);
}

/// The strict tier (AddressSanitizer) runs once the public cases pass, whatever a hidden
/// case did: a string with no room for its '\0', which only the strict build catches, is
/// the same `sanitizer` on a public case with a hidden case failed as without hidden cases.
#[test]
fn a_hidden_failure_does_not_keep_the_strict_tier_from_public_cases() {
    let submission = Submission::new("programs/string_without_room.c");
    add_to_defaults(
        &submission.path("course"),
        "strict_sanitizers = [\"address\"]",
    );
    // A hidden case no program passes.
    std::fs::write(submission.path("hidden/sum/h1_small.out"), "5\n").unwrap();
    let graded = |args: &[&str]| {
        let output = submission.test(&[&["sum", "--format", "json"], args].concat());
        let document: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|err| panic!("{err}: {}", stderr_of(&output)));
        verdicts(&document, 0)
    };
    let without = graded(&[]);
    assert_eq!(without, ["passed", "sanitizer"]);
    let with = graded(&["--fixtures", "../hidden", "--hidden-feedback", "verdicts"]);
    assert_eq!(with[..2], without[..], "{with:?}");
    assert_eq!(with[2], "wrong_output", "{with:?}");
}

/// A hidden case starts once every public case of its exercise has ended, so it cannot slow
/// one beside it (to a timeout, say): three public runs and a hidden one, two at a time,
/// each logging its start and end to a file, graded without isolation so that they can.
#[test]
fn hidden_cases_run_after_every_public_case() {
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    std::fs::create_dir_all(course.join("exercises")).unwrap();
    std::fs::copy(
        repo().join("tests/programs/hidden/logs_its_run.c"),
        course.join("exercises/logs.c"),
    )
    .unwrap();
    std::fs::write(
        course.join("info.toml"),
        "format_version = 1\n\n[[exercises]]\nname = \"logs\"\ntitle = \"logs\"\n\
         path = \"exercises/logs.c\"\n",
    )
    .unwrap();
    // When clings runs as root each run has a user of its own, which must reach the log.
    let shared = dir.path().join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let log = shared.join("log");
    std::fs::write(&log, "").unwrap();
    let open = |path: &Path, mode| {
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap()
    };
    open(dir.path(), 0o755);
    open(&shared, 0o755);
    open(&log, 0o666);
    let cases = |folder: &Path, names: &[&str]| {
        std::fs::create_dir_all(folder).unwrap();
        for name in names {
            let input = format!("{name} {}\n", log.display());
            std::fs::write(folder.join(format!("{name}.in")), input).unwrap();
            std::fs::write(folder.join(format!("{name}.out")), "ok\n").unwrap();
        }
    };
    cases(&course.join("fixtures/logs"), &["01", "02", "03"]);
    cases(&dir.path().join("hidden/logs"), &["04_hidden"]);
    let output = clings(&course)
        .env("CLINGS_ISOLATION", "none")
        .args(["--jobs", "2", "test", "--fixtures", "../hidden"])
        .args(["--hidden-feedback", "verdicts", "--format", "json"])
        .output()
        .unwrap();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", stderr_of(&output)));
    assert_eq!(verdicts(&document, 0), ["passed"; 4], "{document}");
    let said = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 8, "a line as each run begins and ends: {said}");
    let hidden_begins = lines.iter().position(|line| *line == "begin 04_hidden");
    let last_public_end = lines
        .iter()
        .rposition(|line| line.starts_with("end 0") && *line != "end 04_hidden");
    assert!(
        last_public_end.unwrap() < hidden_begins.unwrap(),
        "a hidden case began beside a public one:\n{said}"
    );
}

/// `--hidden-feedback` needs hidden cases, and takes only its three words: anything else
/// is a usage error (exit 2), before anything is graded.
#[test]
fn hidden_feedback_without_fixtures_or_with_another_word_is_a_usage_error() {
    let submission = Submission::right();
    for args in [
        &["--hidden-feedback", "total"][..],
        &["--fixtures", "../hidden", "--hidden-feedback", "some"][..],
    ] {
        let output = submission.test(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr_of(&output)
        );
        assert!(stdout_of(&output).is_empty(), "{args:?}: nothing graded");
        assert!(stderr_of(&output).contains("--"), "{}", stderr_of(&output));
    }
    let output = clings(&submission.path("course"))
        .args(["grade", "../class", "--hidden-feedback", "verdicts"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("--fixtures"),
        "{}",
        stderr_of(&output)
    );
}
