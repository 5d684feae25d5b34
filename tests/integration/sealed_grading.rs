//! Issue 35: grading sealed where classes are graded. Hidden cases run after every case a
//! student sees; a machine whose namespaces were refused since bubblewrap last worked
//! gets the container tier, not an error; hidden cases and courses where every program
//! could read them are refused.

use crate::common;

use std::path::Path;

use common::*;

/// A course of three exercises on `tests/programs/clock_or_sleep.c`, each with one case a
/// student sees (the JSON report keeps one diff an exercise) and, in `hidden/`, one hidden
/// case that sleeps 1.2 s.
fn clock_course() -> tempfile::TempDir {
    let course = program_course(&["programs/clock_or_sleep.c"], "time_limit_ms = 2000\n");
    let info = course.path().join("info.toml");
    let mut text = std::fs::read_to_string(&info).unwrap();
    for exercise in ["clock_too", "clock_three"] {
        text.push_str(&format!(
            "\n[[exercises]]\nname = \"{exercise}\"\ntitle = \"{exercise}\"\n\
             path = \"exercises/clock_or_sleep.c\"\n"
        ));
    }
    std::fs::write(&info, text).unwrap();
    for exercise in ["clock_or_sleep", "clock_too", "clock_three"] {
        let fixtures = course.path().join("fixtures").join(exercise);
        std::fs::remove_dir_all(&fixtures).ok();
        std::fs::create_dir_all(&fixtures).unwrap();
        std::fs::write(fixtures.join("01_when.in"), "when\n").unwrap();
        std::fs::write(fixtures.join("01_when.out"), "never\n").unwrap();
        let hidden = course.path().join("hidden").join(exercise);
        std::fs::create_dir_all(&hidden).unwrap();
        std::fs::write(hidden.join("02_hidden.in"), "hidden\n").unwrap();
        std::fs::write(hidden.join("02_hidden.out"), "slept\n").unwrap();
    }
    course
}

/// The times the cases a student sees started at, from their diffs (`+<ms>`).
fn public_start_times(document: &serde_json::Value) -> Vec<u64> {
    let mut times = Vec::new();
    for exercise in document["exercises"].as_array().expect("exercises") {
        for case in exercise["cases"].as_array().expect("cases") {
            if case["hidden"] == true {
                continue;
            }
            let diff = case["diff"].as_str().expect("a diff for a wrong output");
            let time = diff
                .lines()
                .find_map(|line| line.strip_prefix('+')?.trim().parse::<u64>().ok())
                .unwrap_or_else(|| panic!("no time in {diff}"));
            times.push(time);
        }
    }
    times
}

/// What a hidden case's run does to what runs share (the machine's load, and where there
/// is no pid namespace the pid counter) must not show in a case the student sees: every
/// exercise's own cases run before any hidden case, on one worker and on two. Each hidden
/// case sleeps 1.2 s: run between two exercises' cases, it would part their start times by
/// that much.
#[test]
fn hidden_cases_run_after_every_case_the_student_sees() {
    let course = clock_course();
    for jobs in ["1", "2"] {
        let output = clings(course.path())
            .args(["--jobs", jobs, "test", "--format", "json"])
            .args(["--fixtures", "hidden", "--hidden-feedback", "verdicts"])
            .output()
            .unwrap();
        let document: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|err| panic!("{err}: {}", stderr_of(&output)));
        // The hidden cases ran (and slept).
        for exercise in 0..3 {
            assert_eq!(verdicts(&document, exercise), ["wrong_output", "passed"]);
        }
        let times = public_start_times(&document);
        assert_eq!(times.len(), 3, "{document:#}");
        let spread = times.iter().max().unwrap() - times.iter().min().unwrap();
        assert!(
            spread < 1000,
            "--jobs {jobs}: the cases a student sees started {spread} ms apart: {times:?}"
        );
    }
}

/// A copy of the machine's `bwrap` that works until `broken` exists, and then fails as
/// bubblewrap does where namespaces are refused: a machine whose sysctl or container
/// changed after bubblewrap worked, with the same bwrap, clings and user.
fn breakable_bwrap(dir: &Path) -> std::path::PathBuf {
    let real = find_on_path("bwrap").expect("bwrap");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\nif [ -e '{broken}' ]; then\n  \
         echo 'bwrap: Creating new namespace failed: Operation not permitted' >&2\n  exit 1\n\
         fi\nexec '{real}' \"$@\"\n",
        broken = dir.join("broken").display(),
        real = real.display()
    );
    let path = bin.join("bwrap");
    write_script(&path, &script);
    bin
}

/// A record that bubblewrap works here, taken on its word, is checked again when a sandbox
/// then fails to start: the run goes to the next tier that works (the container tier),
/// with a warning that says why, instead of exiting 2 with bubblewrap's error; and
/// `--require-isolation` still grades. Where no tier works it refuses, saying what was
/// tried and what to do.
#[test]
fn a_machine_whose_namespaces_were_refused_since_gets_the_container_tier() {
    if !require(
        find_on_path("bwrap").is_some(),
        "bubblewrap is not installed",
    ) {
        return;
    }
    let course = program_course(&["course/solutions/sum.c"], "");
    let tools = tempfile::tempdir().unwrap();
    let bin = breakable_bwrap(tools.path());
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let test = |args: &[&str]| {
        clings(course.path())
            .env("PATH", &path)
            .args(args)
            .args(["test", "--format", "json"])
            .output()
            .unwrap()
    };
    // bubblewrap works, and that is remembered.
    let first = test(&["--require-isolation"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr_of(&first));
    assert!(stderr_of(&first).is_empty(), "{}", stderr_of(&first));
    let cache = course.path().join(".clings/user-cache/clings");
    let remembered = || {
        std::fs::read_dir(&cache)
            .map(|entries| {
                entries.filter_map(Result::ok).any(|entry| {
                    entry
                        .file_name()
                        .to_string_lossy()
                        .starts_with("isolation-")
                })
            })
            .unwrap_or(false)
    };
    assert!(remembered(), "no record in {}", cache.display());

    // Namespaces are refused from now on.
    std::fs::write(tools.path().join("broken"), "").unwrap();
    let changed = test(&["--require-isolation"]);
    let said = stderr_of(&changed);
    assert_eq!(changed.status.code(), Some(0), "{said}");
    assert!(said.contains("isolated by the container tier"), "{said}");
    assert!(said.contains("Creating new namespace failed"), "{said}");
    assert!(!remembered(), "the record outlived its failure");
    let document: serde_json::Value = serde_json::from_slice(&changed.stdout).unwrap();
    assert_eq!(verdicts(&document, 0), ["passed", "passed"]);

    // Nothing works: refused, with what was tried and what to do.
    let refused = clings(course.path())
        .env("PATH", &path)
        .env("CLINGS_ISOLATION", "bubblewrap")
        .args(["--require-isolation", "test"])
        .output()
        .unwrap();
    let said = stderr_of(&refused);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("Creating new namespace failed"), "{said}");
    assert!(
        said.contains("kernel.apparmor_restrict_unprivileged_userns"),
        "{said}"
    );
    assert!(!said.contains("install bubblewrap"), "{said}");
}

/// The sandbox shows programs the parts of /usr that hold the compiler and the C
/// libraries, not /usr/local or /usr/share: a file there is out of a program's reach, in
/// both tiers; and hidden cases in a part it shows are refused before anything runs,
/// saying where and what to do.
#[test]
fn only_the_system_s_program_directories_are_shown() {
    if !require(
        nix::unistd::geteuid().is_root(),
        "needs root, to put a file under /usr",
    ) {
        return;
    }
    let secret_dir = tempfile::Builder::new()
        .prefix("clings-test-")
        .tempdir_in("/usr/local/share")
        .unwrap();
    let secret = secret_dir.path().join("answers.txt");
    std::fs::write(&secret, "the answers\n").unwrap();
    let course = program_course(&["programs/cat_path.c"], "");
    for case in ["01_small", "02_negative"] {
        let fixtures = course.path().join("fixtures/cat_path");
        std::fs::write(
            fixtures.join(format!("{case}.in")),
            format!("{}\n", secret.display()),
        )
        .unwrap();
        std::fs::write(fixtures.join(format!("{case}.out")), "cannot open\n").unwrap();
    }
    for tier in [Tier::Bubblewrap, Tier::ContainerLike] {
        let Some(mut command) = tier.clings(course.path()) else {
            return;
        };
        let output = command.arg("test").output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{tier:?}: {}{}",
            stdout_of(&output),
            stderr_of(&output)
        );
    }

    let hidden = tempfile::Builder::new()
        .prefix("clings-test-hidden-")
        .tempdir_in("/usr/lib")
        .unwrap();
    std::fs::create_dir(hidden.path().join("cat_path")).unwrap();
    let output = clings(course.path())
        .args(["test", "--fixtures"])
        .arg(hidden.path())
        .output()
        .unwrap();
    let said = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("would be readable by every program graded"),
        "{said}"
    );
    assert!(
        said.contains(&hidden.path().display().to_string()),
        "{said}"
    );
    assert!(said.contains("/usr/lib"), "{said}");
}
