//! Grading for CI: a submission outside the course, hidden cases, points, every report
//! format, and a whole class in a gradebook.

use crate::common;

use common::*;

/// The test course, a submission directory beside it, and hidden cases.
struct Setup {
    root: tempfile::TempDir,
}

impl Setup {
    /// `submission/` holds `program` as sum.c (flat, like a copy of exercises/) and no hello.c.
    fn new(program: &str) -> Setup {
        let root = ci_layout(
            &repo().join("tests/course"),
            &[(&format!("programs/{program}.c"), "sum.c")],
            "sum",
        );
        let hidden = root.path().join("hidden/sum");
        std::fs::write(hidden.join("09_secret.in"), "4242 4242\n").unwrap();
        std::fs::write(hidden.join("09_secret.out"), "8484\n").unwrap();
        std::fs::write(
            hidden.join("09_secret.toml"),
            "points = 5\nhint = \"Large numbers too.\"\n",
        )
        .unwrap();
        Setup { root }
    }

    fn course(&self) -> std::path::PathBuf {
        self.root.path().join("course")
    }

    /// `clings test --submission ../submission --fixtures ../hidden --hidden-feedback
    /// verdicts` plus `args`, in the course.
    fn test(&self, args: &[&str]) -> std::process::Output {
        clings(&self.course())
            .args([
                "test",
                "--submission",
                "../submission",
                "--fixtures",
                "../hidden",
                "--hidden-feedback",
                "verdicts",
            ])
            .args(args)
            .env("GITHUB_STEP_SUMMARY", self.root.path().join("summary.md"))
            .output()
            .unwrap()
    }
}

fn assert_no_secret(text: &str) {
    assert!(
        !text.contains("4242") && !text.contains("8484"),
        "hidden data leaked:\n{text}"
    );
}

#[test]
fn submission_is_graded_without_touching_the_course() {
    let setup = Setup::new("wrong_output");
    let course_file = std::fs::read(setup.course().join("exercises/sum.c")).unwrap();
    let output = setup.test(&["--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["exercises"][0]["source"], "sum.c");
    assert_eq!(document["exercises"][0]["status"], "failed");
    assert_eq!(
        document["exercises"][1]["status"], "missing",
        "hello.c is not in the submission"
    );
    assert_eq!(verdicts(&document, 1), ["not_run"]);
    assert_eq!(
        std::fs::read(setup.course().join("exercises/sum.c")).unwrap(),
        course_file
    );
    assert!(
        !setup.course().join(".clings-state.json").exists(),
        "no progress written"
    );
}

#[test]
fn repository_layout_is_found_too() {
    let setup = Setup::new("passing");
    let repo_layout = setup.root.path().join("submission/exercises");
    std::fs::create_dir_all(&repo_layout).unwrap();
    std::fs::rename(
        setup.root.path().join("submission/sum.c"),
        repo_layout.join("sum.c"),
    )
    .unwrap();
    std::fs::copy(
        setup.course().join("solutions/hello.c"),
        repo_layout.join("hello.c"),
    )
    .unwrap();
    let output = setup.test(&["--format", "json"]);
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["exercises"][0]["source"], "exercises/sum.c");
    assert_eq!(document["passed"], 2);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn hidden_cases_show_verdict_and_hint_but_no_data_in_any_format() {
    let setup = Setup::new("wrong_output");
    let human = setup.test(&[]);
    let stdout = stdout_of(&human);
    assert!(
        stdout.contains("09_secret (hidden)") && stdout.contains("Large numbers too."),
        "{stdout}"
    );
    assert!(
        stdout.contains("+-1"),
        "visible cases keep their diff: {stdout}"
    );
    assert_no_secret(&stdout);

    let json = setup.test(&["--format", "json"]);
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let secret = &document["exercises"][0]["cases"][2];
    assert_eq!(secret["name"], "09_secret");
    assert_eq!(secret["hidden"], true);
    assert_eq!(secret["verdict"], "wrong_output");
    assert_eq!(secret["max_points"], 5);
    assert_no_secret(&stdout_of(&json));

    for format in ["junit", "github"] {
        let output = setup.test(&["--format", format]);
        assert_no_secret(&stdout_of(&output));
    }
    assert_no_secret(&std::fs::read_to_string(setup.root.path().join("summary.md")).unwrap());
}

#[test]
fn points_are_summed_per_exercise_and_in_total() {
    let setup = Setup::new("passing");
    let output = setup.test(&[]);
    let stdout = stdout_of(&output);
    // sum: 1 + 2 + 5 (hidden) = 8 points, hello missing: 0 of 1.
    assert!(stdout.contains("3/3 cases passed, 8/8 points"), "{stdout}");
    assert!(stdout.contains("Points: 8/9"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("1 passed, 1 failed"));
}

#[test]
fn junit_report_parses_back_with_one_suite_per_exercise() {
    let setup = Setup::new("wrong_output");
    let output = setup.test(&["--format", "junit"]);
    let report =
        quick_junit::Report::deserialize_from_str(&stdout_of(&output)).expect("valid JUnit XML");
    assert_eq!(report.test_suites.len(), 2);
    let sum = &report.test_suites[0];
    assert_eq!(sum.name.as_str(), "sum");
    assert_eq!(sum.test_cases.len(), 3);
    assert_eq!(sum.failures, 3);
    match &sum.test_cases[0].status {
        quick_junit::TestCaseStatus::NonSuccess {
            ty,
            message,
            description,
            ..
        } => {
            assert_eq!(ty.as_ref().map(|t| t.as_str()), Some("wrong_output"));
            assert!(message.as_ref().unwrap().as_str().contains("differs"));
            // The body: the input and the diff, as the human report shows them.
            let body = description.as_ref().unwrap().as_str();
            assert!(body.contains("input:\n  1 2\n"), "{body}");
            assert!(body.contains("-3\n+-1\n"), "{body}");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    // The hidden case's body is its hint: no input, no diff.
    match &sum.test_cases[2].status {
        quick_junit::TestCaseStatus::NonSuccess { description, .. } => {
            let body = description.as_ref().unwrap().as_str();
            assert_eq!(body, "hint: Large numbers too.");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(report.test_suites[1].name.as_str(), "hello");
}

#[test]
fn compile_errors_become_annotations_with_file_and_line() {
    let setup = Setup::new("compile_error");
    let output = setup.test(&["--format", "github"]);
    let stdout = stdout_of(&output);
    assert!(
        stdout.contains("::error file=sum.c,line=7,col=27,"),
        "{stdout}"
    );
    assert!(
        stdout.contains("::error file=sum.c,title=sum::sum.c does not compile"),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(setup.root.path().join("summary.md")).unwrap();
    assert!(
        summary.contains("| sum | compile_error | 0/3 | 0/8 |"),
        "{summary}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn sanitizer_annotation_points_at_the_line() {
    let setup = Setup::new("out_of_bounds");
    let stdout = stdout_of(&setup.test(&["--format", "github"]));
    assert!(
        stdout.contains("::error file=sum.c,line=13,title=sum 01_small%3A sanitizer::"),
        "{stdout}"
    );
}

#[test]
fn output_file_gets_the_format_and_the_terminal_the_human_report() {
    let setup = Setup::new("passing");
    let report = setup.root.path().join("out/results.json");
    let output = setup.test(&["--format", "json", "--output", report.to_str().unwrap()]);
    assert!(
        stdout_of(&output).ends_with("1 passed, 1 failed\n"),
        "{}",
        stdout_of(&output)
    );
    let document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    assert_eq!(document["schema"], "clings-results/1");
}

#[test]
fn a_missing_submission_directory_is_a_grader_error() {
    let setup = Setup::new("passing");
    let output = clings(&setup.course())
        .args(["test", "--submission", "../nowhere"])
        .output()
        .unwrap();
    assert_error(&output, "nowhere");
}

const CLASS: [(&str, &str); 5] = [
    ("alice", "passing"),
    ("bob", "wrong_output"),
    ("carol", "compile_error"),
    ("dave", "timeout"),
    ("erin", "flood"),
];

#[test]
fn gradebook_has_a_row_per_student() {
    let setup = Setup::new("passing");
    class(setup.root.path(), &CLASS);
    let output = clings(&setup.course())
        .args(["grade", "../submissions", "--out", "../book"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let csv = std::fs::read_to_string(setup.root.path().join("book/grades.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "student,sum,hello,total,max,summary");
    assert_eq!(lines[1], "alice,3,0,3,4,sum passed; hello missing");
    assert_eq!(lines[2], "bob,0,0,0,4,sum 0/2 cases; hello missing");
    assert_eq!(lines[3], "carol,0,0,0,4,sum compile_error; hello missing");
    assert!(lines[4].starts_with("dave,0,0,0,4,sum 0/2"), "{csv}");
    assert_eq!(lines.len(), 6);
    let book: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(setup.root.path().join("book/grades.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(book["schema"], "clings-gradebook/1");
    assert_eq!(book["students"][3]["name"], "dave");
    assert_eq!(
        book["students"][3]["results"]["exercises"][0]["cases"][0]["verdict"],
        "timeout"
    );
    assert_eq!(
        book["students"][4]["results"]["exercises"][0]["cases"][0]["verdict"],
        "output_limit"
    );
}

#[test]
fn shards_merge_into_the_whole_gradebook() {
    let setup = Setup::new("passing");
    class(setup.root.path(), &CLASS);
    let grade = |args: &[&str]| {
        let output = clings(&setup.course())
            .arg("grade")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    };
    grade(&["../submissions", "--out", "../whole"]);
    grade(&["../submissions", "--shard", "1/2", "--out", "../shard-1"]);
    grade(&["../submissions", "--shard", "2/2", "--out", "../shard-2"]);
    let shard_1 = std::fs::read_to_string(setup.root.path().join("shard-1/grades.csv")).unwrap();
    assert_eq!(shard_1.lines().count(), 4, "alice, carol, erin: {shard_1}");
    grade(&[
        "--merge",
        "../shard-1/grades.json",
        "../shard-2/grades.json",
        "--out",
        "../merged",
    ]);
    let read = |dir: &str| {
        std::fs::read_to_string(setup.root.path().join(dir).join("grades.csv")).unwrap()
    };
    // Times differ between runs; the CSV has none, so the two must be equal.
    assert_eq!(read("merged"), read("whole"));

    let output = clings(&setup.course())
        .args([
            "grade",
            "--merge",
            "../shard-1/grades.json",
            "../shard-1/grades.json",
            "--out",
            "../twice",
        ])
        .output()
        .unwrap();
    assert_error(&output, "more than one shard");
}

/// A class that hands in the same file (the skeleton, the reference solution) is graded
/// side by side: every student gets the one build whole, none a compile error or a
/// grader error from a build another student's grading replaced meanwhile.
#[test]
fn identical_submissions_graded_side_by_side_all_get_the_build() {
    let setup = Setup::new("passing");
    let names: Vec<String> = (1..=12).map(|n| format!("student{n:02}")).collect();
    let students: Vec<(&str, &str)> = names
        .iter()
        .map(|name| (name.as_str(), "passing"))
        .collect();
    class(setup.root.path(), &students);
    let output = clings(&setup.course())
        .args([
            "--jobs",
            "12",
            "grade",
            "../submissions",
            "--out",
            "../book",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let csv = std::fs::read_to_string(setup.root.path().join("book/grades.csv")).unwrap();
    for (row, name) in csv.lines().skip(1).zip(&names) {
        assert_eq!(
            row,
            format!("{name},3,0,3,4,sum passed; hello missing"),
            "{csv}"
        );
    }
    assert_eq!(csv.lines().count(), 13, "{csv}");
}

/// `clings grade` on `submissions/` in the course of `setup`, with `args` before `grade`.
fn grade_class(setup: &Setup, args: &[&str]) -> std::process::Output {
    clings(&setup.course())
        .args(args)
        .args(["grade", "../submissions", "--out", "../book"])
        .output()
        .unwrap()
}

/// docs/grading-and-ci.md: a gradebook written is exit 0, whatever the students got: failing
/// students are grades, not a broken CI job.
#[test]
fn a_class_that_fails_everything_is_graded_with_exit_0() {
    let setup = Setup::new("passing");
    class(
        setup.root.path(),
        &[("bob", "wrong_output"), ("carol", "compile_error")],
    );
    let output = grade_class(&setup, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        stdout_of(&output).starts_with("graded 2 submissions into "),
        "{}",
        stdout_of(&output)
    );
    let csv = std::fs::read_to_string(setup.root.path().join("book/grades.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let docs = std::fs::read_to_string(repo().join("docs/grading-and-ci.md")).unwrap();
    let docs = docs.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        docs.contains("`clings grade` exits 0 once the gradebook is written, whatever the grades"),
        "docs/grading-and-ci.md must say what grade's exit codes are"
    );
}

/// A submission the grader cannot grade (here: the strict tier's build fails, which the
/// compiler wrapper below makes it do for one student's file) is exit 2: the gradebook is
/// still written, with a `grader error` row, and the student is named.
#[test]
fn a_submission_that_cannot_be_graded_is_exit_2_with_the_gradebook_written() {
    let setup = Setup::new("passing");
    // bob's folder name holds a terminal's escape sequence.
    let bob = "bob\x1b]0;pwned\x07";
    class(setup.root.path(), &[("alice", "passing"), (bob, "passing")]);
    let source_of_bob = setup
        .root
        .path()
        .join("submissions")
        .join(bob)
        .join("sum.c");
    let source = std::fs::read_to_string(&source_of_bob).unwrap();
    std::fs::write(
        &source_of_bob,
        format!("/* GRADER_CANNOT_BUILD */\n{source}"),
    )
    .unwrap();
    add_to_defaults(&setup.course(), "strict_sanitizers = [\"address\"]");
    let cc = setup.root.path().join("breaks-asan-cc");
    write_script(
        &cc,
        "#!/bin/sh\ncase \"$*\" in *-fsanitize=address*)\n\
         for arg; do case \"$arg\" in *.c) grep -q GRADER_CANNOT_BUILD \"$arg\" && \
         printf 'sum.c:1:1: error: \\001\\302\\233\\r\\033]0;pwned\\007\\n' >&2 && exit 1;; esac; done;;\n\
         esac\nexec gcc \"$@\"\n",
    );
    let output = clings(&setup.course())
        .env("CC", &cc)
        .args(["grade", "../submissions", "--out", "../book"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: grading bob\\x1b]0;pwned\\x07 failed"),
        "{stderr}"
    );
    // The compiler's words quote the source: shown escaped.
    assert!(stderr.contains("error: \\x01\\x9b\\r"), "{stderr}");
    assert!(
        !stderr.contains(['\x01', '\u{9b}', '\r', '\x1b', '\x07']),
        "{stderr:?}"
    );
    assert!(
        stderr.contains("the grader failed on 1 submission (listed above)"),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(setup.root.path().join("book/grades.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[1], "alice,3,0,3,4,sum passed; hello missing", "{csv}");
    assert!(
        lines[2].starts_with(&format!(
            "{bob},,,,,\"grader error: sum.c compiles, but not with"
        )),
        "{csv}"
    );
    assert_eq!(lines.len(), 3, "one line per student: {csv}");
}

/// Folder names a spreadsheet would run (`=2+3`, `+1-1+cmd|' -c calc'!A0`...) are text in
/// grades.csv, as graded and as merged, and exactly themselves in grades.json.
#[test]
fn folder_names_that_are_formulas_are_text_in_the_csv_and_exact_in_the_json() {
    let setup = Setup::new("passing");
    let students: Vec<(&str, &str)> = FORMULA_NAMES
        .iter()
        .map(|name| (*name, "passing"))
        .collect();
    class(setup.root.path(), &students);
    let output = grade_class(&setup, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let output = clings(&setup.course())
        .args([
            "grade",
            "--merge",
            "../book/grades.json",
            "--out",
            "../merged",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let mut names = FORMULA_NAMES.map(String::from);
    names.sort();
    for book in ["book", "merged"] {
        let dir = setup.root.path().join(book);
        let cells = csv_cells(&dir.join("grades.csv"));
        assert_no_formula(&cells);
        let rows: Vec<&Vec<String>> = cells.iter().skip(1).collect();
        assert_eq!(rows.len(), names.len(), "{cells:?}");
        for (row, name) in rows.iter().zip(&names) {
            assert_eq!(row[0], name_as_text(name));
            assert_eq!(&row[1..5], ["3", "0", "3", "4"], "{row:?}");
        }
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("grades.json")).unwrap())
                .unwrap();
        let in_json: Vec<&str> = json["students"]
            .as_array()
            .unwrap()
            .iter()
            .map(|student| student["name"].as_str().unwrap())
            .collect();
        assert_eq!(in_json, names, "{book}");
    }
}

/// A student's folder that is a symbolic link (to the course's solutions), or whose file
/// to grade is one or is reached through one, is refused: named on stderr, in the
/// gradebook with why, exit 1; the other students are graded.
#[test]
fn a_student_folder_or_file_that_is_a_symbolic_link_is_refused_and_named() {
    use std::os::unix::fs::symlink;
    let setup = Setup::new("passing");
    class(setup.root.path(), &[("alice", "passing")]);
    let submissions = setup.root.path().join("submissions");
    symlink("../course/solutions", submissions.join("eve")).unwrap();
    std::fs::create_dir(submissions.join("mallory")).unwrap();
    symlink(
        "../../course/solutions/sum.c",
        submissions.join("mallory/sum.c"),
    )
    .unwrap();
    std::fs::create_dir(submissions.join("oscar")).unwrap();
    symlink(
        "../../course/solutions",
        submissions.join("oscar/exercises"),
    )
    .unwrap();

    let output = grade_class(&setup, &[]);
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    for (name, path) in [
        ("eve", "eve"),
        ("mallory", "sum.c"),
        ("oscar", "exercises/sum.c"),
    ] {
        assert!(
            stderr.contains(&format!("refused {name}: {path} leads to "))
                && stderr.contains("course/solutions"),
            "{stderr}"
        );
    }
    assert!(
        stderr.contains("refused 3 submissions (listed above)"),
        "{stderr}"
    );
    assert!(
        stdout_of(&output).contains("graded 1 submission (and refused 3)"),
        "{}",
        stdout_of(&output)
    );
    let book: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(setup.root.path().join("book/grades.json")).unwrap(),
    )
    .unwrap();
    let students = book["students"].as_array().unwrap();
    assert_eq!(students[0]["name"], "alice");
    assert_eq!(students[0]["results"]["points"], 3);
    for student in &students[1..] {
        assert!(student["results"].is_null(), "{student}");
        let why = student["refused"].as_str().unwrap();
        assert!(why.contains("through a symbolic link"), "{why}");
    }
    let cells = csv_cells(&setup.root.path().join("book/grades.csv"));
    assert_eq!(cells.len(), 5, "{cells:?}");
    for row in &cells[2..] {
        assert_eq!(&row[1..5], ["", "", "", ""], "{row:?}");
        assert!(row[5].starts_with("refused: "), "{row:?}");
    }
    // The class report lists them, with why.
    let output = clings(&setup.course())
        .args(["report", "../book/grades.json", "--html", "../report.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let page = std::fs::read_to_string(setup.root.path().join("report.html")).unwrap();
    assert!(
        page.contains("<li><b>eve</b>: <code>refused: eve leads to "),
        "{page}"
    );
}

/// Issue 35: `test --submission` refuses, as `grade` does, a folder that is a symbolic link
/// (to the course's solutions, which would pass), reached through one, or whose file to
/// grade is one: exit 2 before anything is compiled, naming the path and where it leads.
#[test]
fn a_submission_that_is_or_goes_through_a_symbolic_link_is_refused() {
    use std::os::unix::fs::symlink;
    let setup = Setup::new("wrong_output");
    let root = setup.root.path();
    symlink("course/solutions", root.join("link")).unwrap();
    std::fs::create_dir_all(root.join("real/inner")).unwrap();
    symlink("real", root.join("through")).unwrap();
    symlink(
        "../../course/solutions/sum.c",
        root.join("real/inner/sum.c"),
    )
    .unwrap();
    std::fs::create_dir(root.join("own")).unwrap();
    symlink("../course/solutions/sum.c", root.join("own/sum.c")).unwrap();
    let absolute = root.join("link").display().to_string();
    for (given, named, target) in [
        ("../link", "../link", "course/solutions"),
        (absolute.as_str(), absolute.as_str(), "course/solutions"),
        ("../through/inner", "../through", "real"),
        ("../real/inner", "sum.c", "../../course/solutions/sum.c"),
        ("../own", "sum.c", "../course/solutions/sum.c"),
    ] {
        let output = clings(&setup.course())
            .args(["test", "--submission", given])
            .output()
            .unwrap();
        assert_error(
            &output,
            &format!(
                "refused the submission {given}: {named} leads to {target} through a \
                 symbolic link"
            ),
        );
        assert_eq!(stdout_of(&output), "", "nothing graded");
    }
    assert!(
        !setup.course().join(".clings/cache").exists()
            || std::fs::read_dir(setup.course().join(".clings/cache"))
                .unwrap()
                .all(|entry| !entry.unwrap().path().join("program").exists()),
        "nothing compiled"
    );
}

/// Without a terminal (a CI log), grade's progress is one line as each student starts and
/// one as each ends, with the time it took and an estimate of the rest; nothing redrawn.
#[test]
fn headless_progress_is_a_stable_line_per_start_and_end() {
    let setup = Setup::new("passing");
    class(
        setup.root.path(),
        &[
            ("alice", "passing"),
            ("bob", "wrong_output"),
            // A folder's name may hold anything: a terminal's escape, shown as text.
            ("carol\x1b]0;pwned\x07", "passing"),
        ],
    );
    let output = grade_class(&setup, &["--jobs", "1"]);
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        !stderr.contains(['\r', '\x1b', '\x07']),
        "redrawn: {stderr:?}"
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 6, "{stderr}");
    assert_eq!(lines[0], "grading alice");
    assert!(
        lines[1].starts_with("graded alice in ") && lines[1].contains(": 1/3 done, about "),
        "{stderr}"
    );
    assert_eq!(lines[2], "grading bob");
    assert!(
        lines[5].starts_with("graded carol\\x1b]0;pwned\\x07 in ")
            && lines[5].ends_with(": 3/3 done"),
        "{stderr}"
    );
}

/// On a terminal the bar names the student being graded and, until one is done, says it
/// is estimating rather than inventing a time left.
#[test]
fn the_progress_bar_names_the_student_and_estimates_honestly() {
    let Some(script) = find_on_path("script") else {
        require(false, "script (util-linux) is not installed");
        return;
    };
    let setup = Setup::new("passing");
    // Each times out on its cases: a couple of seconds, long enough for the bar to draw.
    class(
        setup.root.path(),
        &[("dave", "timeout"), ("erin\x1b]0;pwned\x07", "timeout")],
    );
    let clings_bin = clings_process(&setup.course()).get_program().to_owned();
    let command = format!(
        "'{}' --jobs 1 grade ../submissions --out ../book",
        clings_bin.to_string_lossy()
    );
    let environment = clings_process(&setup.course());
    let output = std::process::Command::new(script)
        .args(["-qfec", &command, "/dev/null"])
        .current_dir(setup.course())
        .envs(
            environment
                .get_envs()
                .filter_map(|(key, value)| Some((key, value?))),
        )
        .env("TERM", "xterm")
        .output()
        .unwrap();
    let screen = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{screen}");
    // erin's folder name holds a terminal's escape, which the bar shows as text.
    assert!(!screen.contains("\x1b]0;pwned"), "{screen:?}");
    let (first, second) = screen
        .split_once("1/2 graded · grading erin\\x1b]0;pwned\\x07")
        .unwrap_or_else(|| panic!("erin is never named: {screen:?}"));
    assert!(
        first.contains("0/2 graded · grading dave") && first.contains("estimating the time left"),
        "{screen:?}"
    );
    // Once dave is done, his time is the estimate.
    assert!(
        second.contains(" left") && !second.contains("estimating"),
        "{screen:?}"
    );
}
