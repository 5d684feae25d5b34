//! The compile step is untrusted code too: a submission's `#include` and `.incbin` see
//! nothing of the course, the hidden cases or the machine's secrets; a compile that never
//! ends or floods is stopped; a symbolic link is refused; the build is of exactly the bytes
//! that were hashed. And other people's code is never graded unisolated unless asked.

use crate::common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::*;

const SECRET: &str = "SECRET-4f1c9a hidden input";
const GIT_TOKEN: &str = "SECRET-ghp_token_in_git_config";

/// A CI job's layout: `course/` (a copy of this repository's course, with a `.git/config`
/// holding a token), `submission/exercises/`, and `hidden/check_win/` with a secret case.
struct Workspace {
    root: tempfile::TempDir,
}

impl Workspace {
    fn new() -> Workspace {
        let root = ci_layout(&repo(), &[], "check_win");
        std::fs::create_dir_all(root.path().join("course/.git")).unwrap();
        std::fs::write(
            root.path().join("course/.git/config"),
            format!("[http]\n\textraheader = AUTHORIZATION: basic {GIT_TOKEN}\n"),
        )
        .unwrap();
        std::fs::create_dir_all(root.path().join("submission/exercises")).unwrap();
        let hidden = root.path().join("hidden/check_win");
        std::fs::write(hidden.join("secret.in"), format!("{SECRET}\n")).unwrap();
        std::fs::write(hidden.join("secret.out"), "none\n").unwrap();
        Workspace { root }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    fn submit(&self, program: &str) {
        std::fs::copy(
            repo().join("tests/hostile/compile").join(program),
            self.path("submission/exercises/check_win.c"),
        )
        .unwrap();
    }

    /// `clings test check_win` on the submission with the hidden cases, as CI runs it.
    fn grade(&self) -> (serde_json::Value, String) {
        self.grade_in(Tier::Bubblewrap)
    }

    /// The same, in `tier`.
    fn grade_in(&self, tier: Tier) -> (serde_json::Value, String) {
        let mut command = tier.clings(&self.path("course")).expect("the tier");
        let (output, pid) = output_with_pid(
            command
                .args(["test", "check_win", "--format", "json"])
                .args(["--submission", "../submission", "--fixtures", "../hidden"])
                .args(["--hidden-feedback", "verdicts"]),
        );
        let left = leftover_processes(pid, self.root.path());
        assert!(left.is_empty(), "the compile left processes: {left:#?}");
        let document = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
            panic!(
                "not JSON ({err}): {}{}",
                stdout_of(&output),
                stderr_of(&output)
            )
        });
        assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
        (document, stdout_of(&output) + &stderr_of(&output))
    }

    /// The human report of the same grading, which shows the compiler's diagnostics.
    fn human(&self) -> String {
        self.human_in(Tier::Bubblewrap)
    }

    /// The same, in `tier`.
    fn human_in(&self, tier: Tier) -> String {
        let output = tier
            .clings(&self.path("course"))
            .expect("the tier")
            .args(["test", "check_win"])
            .args(["--submission", "../submission", "--fixtures", "../hidden"])
            .args(["--hidden-feedback", "verdicts"])
            .output()
            .unwrap();
        stdout_of(&output) + &stderr_of(&output)
    }
}

/// A file `name` holding `content` in a folder of the system's temporary directory, both
/// readable by anyone (as a compile's own user is), as a file left in /tmp often is.
fn readable_secret(name: &str, content: &str) -> (tempfile::TempDir, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, content).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    (dir, file)
}

/// The longest line of the reference solution: if it shows anywhere, the solution leaked.
fn solution_line() -> String {
    let solution = std::fs::read_to_string(repo().join("solutions/check_win.c")).unwrap();
    solution
        .lines()
        .max_by_key(|line| line.trim().len())
        .unwrap()
        .trim()
        .to_string()
}

fn assert_nothing_leaked(report: &str) {
    for secret in [SECRET, GIT_TOKEN, &solution_line(), "root:"] {
        assert!(!report.contains(secret), "{secret:?} leaked:\n{report}");
    }
}

#[test]
fn includes_of_the_course_the_hidden_cases_and_secrets_see_nothing() {
    let workspace = Workspace::new();
    let before = snapshot(&workspace.path("course"));
    // A file of the shared temporary directory: another run's, a teacher's.
    let (_shared, answers) = readable_secret("answers.txt", &format!("{SECRET}\n"));
    let incbin_tmp = format!(
        "#include <stdio.h>\n__asm__(\".section .rodata\\n.global leaked\\nleaked:\\n\
         .incbin \\\"{}\\\"\\n.byte 0\\n.previous\");\n\
         extern const char leaked[];\nint main(void) {{ fputs(leaked, stdout); return 0; }}\n",
        answers.display()
    );
    // As bubblewrap shows the compiler the system alone, and as Landlock lets it read it.
    for tier in [Tier::Bubblewrap, Tier::ContainerLike] {
        let course = clings_process(&workspace.path("course"));
        if tier == Tier::ContainerLike && in_container(&course).is_none() {
            break;
        }
        // By their absolute paths too, which the compile's own directory cannot hide.
        let include = |path: PathBuf| {
            assert!(path.is_file(), "{} to include", path.display());
            format!("#include \"{}\"\n", path.display())
        };
        let generated = [
            ("incbin_tmp", incbin_tmp.clone()),
            (
                "include_solution_by_path",
                include(workspace.path("course/solutions/check_win.c")),
            ),
            (
                "include_hidden_by_path",
                include(workspace.path("hidden/check_win/secret.in")),
            ),
        ];
        for program in [
            "include_solution.c",
            "incbin_fixture.c",
            "include_hidden.c",
            "include_secrets.c",
            "incbin_tmp",
            "include_solution_by_path",
            "include_hidden_by_path",
        ] {
            match generated.iter().find(|(name, _)| *name == program) {
                Some((_, source)) => {
                    let file = workspace.path("submission/exercises/check_win.c");
                    std::fs::write(file, source).unwrap()
                }
                None => workspace.submit(program),
            }
            let (document, report) = workspace.grade_in(tier);
            assert_eq!(
                document["exercises"][0]["status"], "compile_error",
                "{tier:?} {program}: {report}"
            );
            assert_nothing_leaked(&report);
            let human = workspace.human_in(tier);
            assert_nothing_leaked(&human);
            // The compiler's message names what it could not read, by the path given.
            if let Some((_, source)) = generated.iter().find(|(name, _)| *name == program) {
                let path = source
                    .split('"')
                    .find(|part| part.starts_with('/'))
                    .unwrap_or("");
                let path = path.trim_end_matches('\\');
                assert!(
                    human.contains(path),
                    "{tier:?} {program} names {path}: {human}"
                );
            }
            assert!(
                ["No such file", "file not found", "Permission denied"]
                    .iter()
                    .any(|words| human.contains(words)),
                "{tier:?} {program}: {human}"
            );
        }
    }
    assert!(
        before == snapshot(&workspace.path("course")),
        "the course changed"
    );
}

#[test]
fn a_compile_that_never_ends_or_floods_is_stopped_with_a_reason() {
    let workspace = Workspace::new();
    workspace.submit("include_endless.c");
    let started = Instant::now();
    let (document, report) = workspace.grade();
    assert_eq!(
        document["exercises"][0]["status"], "compile_error",
        "{report}"
    );
    assert!(started.elapsed() < Duration::from_secs(30), "{report}");

    // Far more diagnostics than anyone reads: the compiler is stopped past 256 KiB.
    let flood = "int x = ;\n".repeat(60_000);
    std::fs::write(workspace.path("submission/exercises/check_win.c"), flood).unwrap();
    let started = Instant::now();
    let report = workspace.human();
    assert!(
        report.contains("clings stopped the compiler: it printed more than 256 KiB"),
        "{}",
        &report[report.len().saturating_sub(2000)..]
    );
    assert!(started.elapsed() < Duration::from_secs(30));

    // A source too large to be a C exercise never reaches the compiler.
    let huge = "// padding\n".repeat(200_000);
    std::fs::write(workspace.path("submission/exercises/check_win.c"), huge).unwrap();
    let report = workspace.human();
    assert!(report.contains("is larger than 1024 KiB"), "{report}");
}

/// docs/security.md, "The compile step": the compile's limits are "10 s of CPU and of wall
/// time, 1 GiB of memory, 16 processes, 64 MiB files". A compiler that takes all it can says
/// what it got: the memory, the file size and the processes (the compiler itself among them);
/// one that waits for ever is stopped at 10 s, and the report says so.
#[test]
fn the_compile_is_held_to_its_limits() {
    let workspace = Workspace::new();
    let compiler = workspace.path("greedy-cc");
    let built = std::process::Command::new("gcc")
        .arg(repo().join("tests/hostile/compile/greedy_compiler.c"))
        .arg("-o")
        .arg(&compiler)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr_of(&built));
    std::fs::copy(
        repo().join("solutions/check_win.c"),
        workspace.path("submission/exercises/check_win.c"),
    )
    .unwrap();
    let (output, pid) = output_with_pid(
        clings_process(&workspace.path("course"))
            .env("CC", &compiler)
            .args(["--require-isolation", "test", "check_win"])
            .args(["--submission", "../submission"]),
    );
    let report = stdout_of(&output);
    let got = |prefix: &str| -> u64 {
        report
            .lines()
            .find_map(|line| line.trim().strip_prefix(prefix))
            .and_then(|rest| rest.split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no {prefix:?}: {report}{}", stderr_of(&output)))
    };
    let reserved = got("reserved ");
    assert!((896..=1024).contains(&reserved), "reserved {reserved} MiB");
    assert_eq!(got("wrote "), 64 << 20);
    assert_eq!(got("forked "), 15, "processes");
    assert!(report.contains("compile_error"), "{report}");
    let left = leftover_processes(pid, workspace.root.path());
    assert!(left.is_empty(), "the compile left processes: {left:#?}");

    std::fs::write(
        workspace.path("submission/exercises/check_win.c"),
        "/* GREEDY_SLEEP */\n",
    )
    .unwrap();
    let started = Instant::now();
    let output = clings(&workspace.path("course"))
        .env("CC", &compiler)
        .args(["--require-isolation", "test", "check_win"])
        .args(["--submission", "../submission"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let report = stdout_of(&output);
    assert!(
        report.contains("clings stopped the compiler after 10 s")
            && report.contains("compile_error"),
        "{report}"
    );
    // The helper stops it at 10 s, clings itself half a second later.
    assert!(
        (Duration::from_secs(10)..Duration::from_secs(15)).contains(&took),
        "stopped after {took:?}"
    );
}

/// A source that is a link, or is reached through one, is refused by the compile itself
/// (in the course: `clings test`), and before any compile by `--submission` (issue 35).
#[test]
fn a_source_reached_through_a_symbolic_link_is_refused() {
    let workspace = Workspace::new();
    let own = workspace.path("course/exercises/check_win.c");
    std::fs::remove_file(&own).unwrap();
    std::os::unix::fs::symlink("../solutions/check_win.c", &own).unwrap();
    let output = clings(&workspace.path("course"))
        .args(["--require-isolation", "test", "check_win"])
        .output()
        .unwrap();
    let report = stdout_of(&output);
    assert!(report.contains("is a symbolic link"), "{report}");
    assert!(report.contains("compile_error"), "{report}");
    // A directory on the way is a link: the same.
    std::fs::remove_dir_all(workspace.path("course/exercises")).unwrap();
    std::os::unix::fs::symlink("solutions", workspace.path("course/exercises")).unwrap();
    let output = clings(&workspace.path("course"))
        .args(["--require-isolation", "test", "check_win"])
        .output()
        .unwrap();
    let report = stdout_of(&output);
    assert!(report.contains("is a symbolic link"), "{report}");
    assert!(!report.contains("passed        01_"), "{report}");

    let link = workspace.path("submission/exercises/check_win.c");
    std::os::unix::fs::symlink("../../course/solutions/check_win.c", &link).unwrap();
    let output = clings(&workspace.path("course"))
        .args(["--require-isolation", "test", "check_win"])
        .args(["--submission", "../submission"])
        .output()
        .unwrap();
    assert_error(&output, "exercises/check_win.c leads to ");
}

/// docs/security.md, "The compile step": a source "that is not a regular file ... is refused
/// with a message". A FIFO would hold a reader for ever: clings must not wait for a writer.
#[test]
fn a_source_that_is_not_a_regular_file_is_refused() {
    let workspace = Workspace::new();
    let source = workspace.path("submission/exercises/check_win.c");
    nix::unistd::mkfifo(&source, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
    let mut command = clings_process(&workspace.path("course"));
    command
        .args(["--require-isolation", "test", "check_win"])
        .args(["--submission", "../submission"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("clings waits on the FIFO");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let report = stdout_of(&output);
    assert!(
        report.contains("check_win.c is not a regular file") && report.contains("compile_error"),
        "{report}{}",
        stderr_of(&output)
    );
    std::fs::remove_file(&source).unwrap();
    std::fs::create_dir(&source).unwrap();
    let report = workspace.human();
    assert!(
        report.contains("check_win.c is not a regular file") && report.contains("compile_error"),
        "{report}"
    );
}

#[test]
fn the_build_is_of_the_bytes_that_were_hashed() {
    // A compiler slow enough that the student saves again while it runs: the build must
    // be of what was hashed, or the cache would keep the wrong program under that key.
    let course = sum_course("passing");
    let slow_cc = course.path().join("slow-cc");
    // Only the compile of the source is slow (it asks for a dependency list), not the
    // questions clings asks the compiler first.
    write_script(
        &slow_cc,
        "#!/bin/sh\ncase \"$*\" in *-MD*) sleep 2;; esac\nexec gcc \"$@\"\n",
    );
    let mut first = clings_process(course.path());
    first
        .env("CC", &slow_cc)
        .args(["test", "sum", "--format", "json"])
        .stdout(std::process::Stdio::piped());
    let running = first.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    put_program(course.path(), "wrong_output");
    let output = running.wait_with_output().unwrap();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The grading may be of either file (it builds ahead, then reads the file again to
    // grade it), never of a mix.
    let first = verdicts(&document, 0);
    assert!(
        first == ["passed", "passed"] || first == ["wrong_output", "wrong_output"],
        "{first:?}"
    );
    // Each content is graded as itself: the cache holds no program under another's key.
    let grade = |program: &str, expected: [&str; 2]| {
        put_program(course.path(), program);
        let output = clings(course.path())
            .env("CC", &slow_cc)
            .args(["test", "sum", "--format", "json"])
            .output()
            .unwrap();
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(verdicts(&document, 0), expected, "{program}");
    };
    grade("wrong_output", ["wrong_output", "wrong_output"]);
    grade("passing", ["passed", "passed"]);
}

#[test]
fn submissions_are_not_graded_unisolated_unless_asked() {
    let workspace = Workspace::new();
    std::fs::copy(
        repo().join("solutions/check_win.c"),
        workspace.path("submission/exercises/check_win.c"),
    )
    .unwrap();
    let grade = |extra: &[&str]| {
        clings(&workspace.path("course"))
            .env("CLINGS_ISOLATION", "none")
            .args(["test", "check_win", "--submission", "../submission"])
            .args(extra)
            .output()
            .unwrap()
    };
    assert_error(&grade(&[]), "--allow-unisolated");
    let allowed = grade(&["--allow-unisolated"]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr_of(&allowed));
    // A class: the same.
    let student = workspace.path("class/student");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::copy(
        workspace.path("submission/exercises/check_win.c"),
        student.join("check_win.c"),
    )
    .unwrap();
    let grade_class = |extra: &[&str]| {
        clings(&workspace.path("course"))
            .env("CLINGS_ISOLATION", "none")
            .args(["grade", "../class", "--out", "../book"])
            .args(extra)
            .output()
            .unwrap()
    };
    assert_error(&grade_class(&[]), "--allow-unisolated");
    assert!(!workspace.path("book").exists(), "nothing graded");
    let allowed = grade_class(&["--allow-unisolated"]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr_of(&allowed));
    assert!(workspace.path("book/grades.csv").is_file());
    // A student's own exercises are theirs to run: only a warning.
    let own = clings(&workspace.path("course"))
        .env("CLINGS_ISOLATION", "none")
        .args(["run", "print_board"])
        .output()
        .unwrap();
    assert_ne!(own.status.code(), Some(2), "{}", stderr_of(&own));
    assert!(stderr_of(&own).contains("without isolation"));
}

#[test]
fn a_program_cannot_write_back_to_its_input_as_a_normal_user() {
    // As root the program runs as a user of its own, which cannot open the fixture at
    // all; the case that matters is a student's laptop or a CI user: clings not root.
    let course = sum_course("passing");
    std::fs::copy(
        repo().join("tests/hostile/write_stdin.c"),
        course.path().join("exercises/sum.c"),
    )
    .unwrap();
    for case in ["01_small", "02_negative"] {
        std::fs::write(
            course.path().join(format!("fixtures/sum/{case}.out")),
            "input unchanged\n",
        )
        .unwrap();
    }
    let before = snapshot(course.path());
    let Some(mut command) = clings_unprivileged(course.path()) else {
        return;
    };
    let output = command
        .args(["--require-isolation", "test", "sum", "--format", "json"])
        .output()
        .unwrap();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("not JSON ({err}): {}", stderr_of(&output)));
    assert_eq!(verdicts(&document, 0), ["passed", "passed"]);
    assert!(before == snapshot(course.path()), "the fixtures changed");
}

/// Issue 41: a compile that reads a file outside the system's directories is the
/// student's compile error, naming the file, in every tier: isolated, the compiler cannot
/// see it; without isolation (`--allow-unisolated`) it can, and the build cache could not
/// vouch for it, which was a grader error (exit 2, "the build cache entry vanished"). None
/// of the file is shown; in a `grade`, the classmate beside it gets full marks.
#[test]
fn a_header_outside_the_system_s_directories_is_the_student_s_compile_error() {
    let (_shared, header) = readable_secret("answers.h", &format!("#define ANSWER \"{SECRET}\"\n"));
    let program = format!(
        "#include <stdio.h>\n#include \"{}\"\nint main(void) {{ puts(ANSWER); return 0; }}\n",
        header.display()
    );
    for tier in [Tier::Bubblewrap, Tier::ContainerLike, Tier::None] {
        let workspace = Workspace::new();
        std::fs::write(workspace.path("submission/exercises/check_win.c"), &program).unwrap();
        let Some(mut command) = tier.clings(&workspace.path("course")) else {
            return;
        };
        if tier == Tier::None {
            command.arg("--allow-unisolated");
        }
        let output = command
            .args(["test", "check_win", "--submission", "../submission"])
            .output()
            .unwrap();
        let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
        assert_eq!(output.status.code(), Some(1), "{tier:?}: {said}");
        assert!(said.contains("compile_error"), "{tier:?}: {said}");
        assert!(
            said.contains(&header.display().to_string()),
            "{tier:?}: {said}"
        );
        assert!(!said.contains(SECRET), "{tier:?}: {said}");
    }

    // Without isolation, in a class: the student's compile error, the classmate's pass.
    let workspace = Workspace::new();
    for (student, source) in [
        ("a_includer", program.clone()),
        ("b_classmate", {
            std::fs::read_to_string(repo().join("solutions/check_win.c")).unwrap()
        }),
    ] {
        let folder = workspace.path("class").join(student);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("check_win.c"), source).unwrap();
    }
    let output = clings(&workspace.path("course"))
        .env("CLINGS_ISOLATION", "none")
        .args([
            "--allow-unisolated",
            "grade",
            "../class",
            "--out",
            "../book",
        ])
        .output()
        .unwrap();
    let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(0), "{said}");
    let grades = std::fs::read_to_string(workspace.path("book/grades.json")).unwrap();
    assert!(!grades.contains(SECRET), "{grades}");
    let book: serde_json::Value = serde_json::from_str(&grades).unwrap();
    let status = |student: usize| {
        let results = book["students"][student]["results"]["exercises"]
            .as_array()
            .unwrap();
        let check_win = results.iter().find(|e| e["name"] == "check_win").unwrap();
        check_win["status"].as_str().unwrap().to_string()
    };
    assert_eq!(status(0), "compile_error", "{grades}");
    assert_eq!(status(1), "passed", "{grades}");
}
