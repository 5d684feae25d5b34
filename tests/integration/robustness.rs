//! The runner itself loses nothing: Ctrl-C in the middle of a run, two clings processes at
//! once, a fixture that cannot be read, a disk too full to save progress, and isolation
//! that is required but missing.

use crate::common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

const STATE: &str = r#"{ "current": "sum", "done": [], "hints": { "sum": 1 } }"#;

/// `clings` as a plain process with its output piped, to signal or to run several at once.
fn piped_clings(dir: &Path) -> Command {
    let mut command = clings_process(dir);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

fn wait_with_limit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "clings did not end in {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn ctrl_c_stops_every_run_and_keeps_the_state_and_the_course() {
    for isolation in [true, false] {
        let course = sum_course("passing");
        std::fs::copy(
            repo().join("tests/hostile/sleeper.c"),
            course.path().join("exercises/sum.c"),
        )
        .unwrap();
        // The second run long enough that only Ctrl-C ends it; the first ends on its own
        // before, and must not take the second off the list of runs Ctrl-C stops.
        for (case, limit) in [("01_small", 200), ("02_negative", 60000)] {
            let config = course.path().join(format!("fixtures/sum/{case}.toml"));
            let mut text = std::fs::read_to_string(&config).unwrap_or_default();
            text.insert_str(0, &format!("time_limit_ms = {limit}\n"));
            std::fs::write(&config, text).unwrap();
        }
        std::fs::write(course.path().join(".clings-state.json"), STATE).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let before = snapshot(course.path());

        let mut command = piped_clings(course.path());
        command
            .env("TMPDIR", scratch.path())
            .args(["--jobs", "2", "run", "sum"]);
        if !isolation {
            command.env("CLINGS_ISOLATION", "none");
        }
        let mut child = command.spawn().unwrap();
        let pid = child.id();
        remember_run_users(pid);
        // The sleeper, not the probe that checks whether isolation works: still there
        // after a while.
        let running = || {
            leftover_processes(pid, course.path())
                .into_iter()
                .chain(leftover_processes(pid, scratch.path()))
                .any(|process| {
                    let command = process.trim_end();
                    command.ends_with("/program") || command.ends_with("/.program")
                })
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while !(running() && {
            std::thread::sleep(Duration::from_millis(300));
            running()
        }) {
            assert!(Instant::now() < deadline, "the program never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        // By now the first run has timed out.
        std::thread::sleep(Duration::from_millis(600));
        kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
        let status = wait_with_limit(&mut child, Duration::from_secs(10));
        let output = child.wait_with_output().unwrap();

        assert_eq!(status.code(), Some(130), "{}", stderr_of(&output));
        assert!(stderr_of(&output).contains("interrupted"));
        assert!(leftover_processes(pid, course.path()).is_empty());
        let left = leftover_processes(pid, scratch.path());
        assert!(left.is_empty(), "{left:#?}");
        assert!(before == snapshot(course.path()), "the course changed");
        assert_eq!(
            std::fs::read_to_string(course.path().join(".clings-state.json")).unwrap(),
            STATE
        );
        assert!(
            entries(scratch.path()).is_empty(),
            "scratch directories left: {:?}",
            entries(scratch.path())
        );
    }
}

#[test]
fn two_clings_at_once_keep_each_others_progress() {
    let course = sum_course("passing");
    // `run` loads the progress, compiles and runs for a while, then saves; the hints are
    // saved meanwhile and must survive its save.
    let mut children = vec![
        piped_clings(course.path())
            .args(["run", "sum"])
            .spawn()
            .unwrap(),
    ];
    for name in ["hello", "sum", "hello", "sum"] {
        children.push(
            piped_clings(course.path())
                .args(["hint", name])
                .spawn()
                .unwrap(),
        );
    }
    for mut child in children {
        let status = wait_with_limit(&mut child, Duration::from_secs(60));
        assert!(status.success(), "{:?}", child.wait_with_output());
    }
    let text = std::fs::read_to_string(course.path().join(".clings-state.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(state["done"], serde_json::json!(["sum"]), "{text}");
    assert_eq!(state["hints"]["hello"], 1, "{text}");
    assert!(state["hints"]["sum"].as_u64() >= Some(1), "{text}");
    let names = entries(course.path());
    assert!(
        names.iter().all(|name| !name.starts_with(".tmp")),
        "temporary files left: {names:?}"
    );
}

/// Whether `/proc/locks` shows the process `pid` blocked on a `flock` of the file `inode`.
fn blocked_on(pid: u32, inode: u64) -> bool {
    std::fs::read_to_string("/proc/locks")
        .unwrap()
        .lines()
        .any(|line| {
            // "1: -> FLOCK  ADVISORY  WRITE 4321 08:01:5678 0 EOF": a request waiting.
            let fields: Vec<&str> = line.split_whitespace().collect();
            fields.get(1) == Some(&"->")
                && fields.get(2) == Some(&"FLOCK")
                && fields.get(5) == Some(&pid.to_string().as_str())
                && fields
                    .get(6)
                    .and_then(|device| device.rsplit(':').next())
                    .is_some_and(|found| found == inode.to_string())
        })
}

/// docs/security.md, "Nothing lost": "the progress file is written under a lock". With the lock
/// held here, a clings that saves its progress is seen waiting for it (the kernel's list of
/// locks says so: an event, not a time), writes nothing meanwhile, and saves once it is free.
/// Without the lock it would save at once; `two_clings_at_once_keep_each_others_progress` only
/// catches that when the race goes wrong.
#[test]
fn a_save_waits_for_the_progress_lock() {
    use std::os::unix::fs::MetadataExt;
    let course = sum_course("passing");
    let state = course.path().join(".clings-state.json");
    std::fs::write(&state, STATE).unwrap();
    let lock = course.path().join(".clings/state.lock");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let file = std::fs::File::create(&lock).unwrap();
    let inode = file.metadata().unwrap().ino();
    let held = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusive).unwrap();
    let mut child = piped_clings(course.path())
        .args(["hint", "sum"])
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !blocked_on(child.id(), inode) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "clings saved without waiting for the lock ({status}): {}",
                std::fs::read_to_string(&state).unwrap()
            );
        }
        assert!(Instant::now() < deadline, "clings never asked for the lock");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(std::fs::read_to_string(&state).unwrap(), STATE);
    drop(held);
    let status = wait_with_limit(&mut child, Duration::from_secs(30));
    assert!(status.success(), "{:?}", child.wait_with_output());
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["hints"]["sum"], 2, "{saved}");
}

#[test]
fn unreadable_fixtures_are_clear_errors() {
    let scratch = tempfile::tempdir().unwrap();
    for (part, complaint) in [
        ("01_small.out", "Is a directory"),
        ("01_small.in", "not a regular file"),
    ] {
        let course = sum_course("passing");
        let path = course.path().join("fixtures/sum").join(part);
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let output = clings(course.path())
            .env("TMPDIR", scratch.path())
            .args(["test", "sum"])
            .output()
            .unwrap();
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&path.display().to_string()) && stderr.contains(complaint),
            "{stderr}"
        );
        assert!(!course.path().join(".clings-state.json").exists());
    }
    assert!(entries(scratch.path()).is_empty());
}

#[test]
fn a_full_disk_when_saving_progress_is_an_error_and_leaves_nothing() {
    let course = sum_course("passing");
    let before = entries(course.path());
    let mut command = piped_clings(course.path());
    command.args(["hint", "sum"]);
    // A file size limit of a few bytes fails the write like a full disk would.
    // SAFETY: setrlimit and signal are async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_FSIZE, 16, 16)?;
            nix::sys::signal::signal(Signal::SIGXFSZ, nix::sys::signal::SigHandler::SigIgn)?;
            Ok(())
        });
    }
    let output = command.output().unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write progress to") && stderr.contains(".clings-state.json"),
        "{stderr}"
    );
    let mut after = entries(course.path());
    after.retain(|name| name != ".clings");
    assert_eq!(after, before, "files left behind");
}

/// docs/security.md, "Without isolation": "Where bubblewrap is missing or namespaces are
/// forbidden, a student's own runs fall back to the limits alone with a warning that says what
/// is not protected; `--require-isolation` makes that an error (for CI), and
/// `CLINGS_ISOLATION=none` asks for limits only." Bubblewrap is missing from a PATH that holds
/// nothing; a `bwrap` that fails as it does where namespaces are forbidden stands for a
/// locked-down container.
#[test]
fn without_isolation_runs_fall_back_with_a_warning_or_fail_when_required() {
    let gcc = find_on_path("gcc");
    if !require(gcc.is_some(), "gcc is not on PATH") {
        return;
    }
    let course = sum_course("passing");
    let empty = tempfile::tempdir().unwrap();
    let forbidden = tempfile::tempdir().unwrap();
    write_script(
        &forbidden.path().join("bwrap"),
        "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n",
    );
    // Isolation that worked here is remembered (the probe costs a sandbox's start), for
    // this bubblewrap only: the record must not vouch for another.
    let output = clings(course.path())
        .env("CC", gcc.as_ref().unwrap())
        .args(["--require-isolation", "test", "sum"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let records = std::fs::read_dir(course.path().join(".clings/user-cache/clings"))
        .unwrap()
        .filter(|entry| {
            let name = entry.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("isolation-")
        })
        .count();
    assert_eq!(records, 1, "the record that isolation works here");
    // bubblewrap alone is asked for (CLINGS_ISOLATION=bubblewrap): else the container tier
    // isolates where bubblewrap cannot (below).
    let ways: [(&str, &str, &str, &Path); 3] = [
        (
            "missing",
            "bubblewrap is not installed",
            "install bubblewrap",
            empty.path(),
        ),
        (
            "forbidden",
            "No permissions to create new namespace",
            "allow bubblewrap its namespaces",
            forbidden.path(),
        ),
        (
            "asked",
            "CLINGS_ISOLATION=none",
            "unset CLINGS_ISOLATION",
            empty.path(),
        ),
    ];
    for (way, reason, advice, path) in ways {
        let grade = |args: &[&str]| {
            let mut command = clings(course.path());
            command.env("CC", gcc.as_ref().unwrap()).args(args);
            match way {
                "asked" => command.env("CLINGS_ISOLATION", "none"),
                _ => command
                    .env("PATH", path)
                    .env("CLINGS_ISOLATION", "bubblewrap"),
            };
            command.output().unwrap()
        };
        let output = grade(&["--require-isolation", "test", "sum"]);
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{way}: {stderr}");
        assert!(
            stderr.contains("--require-isolation") && stderr.contains(reason),
            "{way}: {stderr}"
        );
        assert!(stdout_of(&output).is_empty(), "{way}: nothing graded");
        // Without the flag, the same grading runs, with a warning that says why and what
        // is not protected.
        let output = grade(&["test", "sum"]);
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(0), "{way}: {stderr}");
        assert!(
            stderr.contains("warning: programs and the compiler run without isolation (")
                && stderr.contains(reason)
                && stderr.contains("can read and change whatever your user can")
                && stderr.contains(advice),
            "{way}: {stderr}"
        );
        // Advice for what is missing, not for what is there.
        if way == "forbidden" {
            assert!(!stderr.contains("install bubblewrap"), "{stderr}");
        }
    }
    // Any tier: where bubblewrap is missing or refused, the container tier isolates, and
    // says why bubblewrap could not.
    for (reason, path) in [
        ("bubblewrap is not installed", empty.path()),
        ("No permissions to create new namespace", forbidden.path()),
    ] {
        let output = clings(course.path())
            .env("CC", gcc.as_ref().unwrap())
            .env("PATH", path)
            .args(["--require-isolation", "test", "sum"])
            .output()
            .unwrap();
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains("isolated by the container tier") && stderr.contains(reason),
            "{stderr}"
        );
    }
}

/// Issues 12 and 38: a course the student may not write to (a shared lab install). Hints
/// and results are shown and nothing in the course changes; progress is kept in the
/// user's state folder (said once), so hints advance; where that cannot be written either,
/// the student is told once that progress is not saved, and what to do.
#[test]
fn a_read_only_course_shows_hints_and_results_and_keeps_progress_in_the_users_state() {
    let course = sum_course("passing");
    // Runs as a normal user (root may write anywhere), in a course it may only read.
    let Some(_) = clings_unprivileged(course.path()) else {
        return;
    };
    for entry in walkdir::WalkDir::new(course.path()) {
        let entry = entry.unwrap();
        let mode = if entry.file_type().is_dir() {
            0o555
        } else {
            0o444
        };
        std::fs::set_permissions(
            entry.path(),
            std::os::unix::fs::PermissionsExt::from_mode(mode),
        )
        .unwrap();
    }
    let before = snapshot(course.path());
    // The builds go to a cache of the user's own, which this test owns too.
    let cache = tempfile::tempdir().unwrap();
    if nix::unistd::geteuid().is_root() {
        let nobody = Some(nix::unistd::Uid::from_raw(65534));
        nix::unistd::chown(cache.path(), nobody, None).unwrap();
    }
    // A state folder the user may not write to, then one it may.
    let state = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        state.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o555),
    )
    .unwrap();
    let run_with_state = |state: &Path, args: &[&str]| {
        let mut command = clings_unprivileged(course.path()).unwrap();
        command.env("XDG_CACHE_HOME", cache.path());
        command.env("XDG_STATE_HOME", state);
        command.args(args).output().unwrap()
    };
    for _ in 0..2 {
        let hint = run_with_state(state.path(), &["hint"]);
        assert_eq!(hint.status.code(), Some(0), "{}", stderr_of(&hint));
        assert!(
            stdout_of(&hint).contains("Hint 1 of 2"),
            "{}",
            stdout_of(&hint)
        );
        let warned = stderr_of(&hint);
        assert_eq!(
            warned.matches("progress cannot be saved").count(),
            1,
            "{warned}"
        );
        assert!(warned.contains("set XDG_STATE_HOME"), "{warned}");
    }
    std::fs::set_permissions(
        state.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let run = |args: &[&str]| run_with_state(state.path(), args);
    let first = run(&["hint"]);
    assert!(
        stdout_of(&first).contains("Hint 1 of 2"),
        "{}",
        stdout_of(&first)
    );
    assert!(
        stderr_of(&first).contains("progress is kept in")
            && stderr_of(&first).contains(&state.path().display().to_string()),
        "{}",
        stderr_of(&first)
    );
    let second = run(&["hint"]);
    assert!(
        stdout_of(&second).contains("Hint 2 of 2"),
        "{}",
        stdout_of(&second)
    );
    assert!(
        !stderr_of(&second).contains("warning"),
        "{}",
        stderr_of(&second)
    );

    let graded = run(&["run", "sum"]);
    assert_eq!(graded.status.code(), Some(0), "{}", stderr_of(&graded));
    assert!(
        stdout_of(&graded).contains("sum passed"),
        "{}",
        stdout_of(&graded)
    );
    assert_eq!(snapshot(course.path()), before);
    assert!(!course.path().join(".clings").exists());
    assert!(cache.path().join("clings").is_dir(), "the build was cached");
}

/// Issue 38: a temporary directory that is read-only or mounted `noexec` stops a run with
/// an error that names it and says how to give clings another (TMPDIR), which works.
#[test]
fn a_temporary_directory_that_cannot_hold_runs_is_named_with_its_fix() {
    let root = nix::unistd::geteuid().is_root();
    if !require(
        root && find_on_path("unshare").is_some(),
        "mounting a temporary directory needs root and unshare",
    ) {
        return;
    }
    let course = sum_course("passing");
    let broken = tempfile::tempdir().unwrap();
    let working = tempfile::tempdir().unwrap();
    for (option, said) in [
        ("ro", "Read-only file system"),
        ("noexec", "mounted noexec"),
    ] {
        // Each tier, so that the program's scratch folder and the builds' are both checked.
        for isolation in ["auto", "none"] {
            let run = |tmpdir: &Path| {
                let clings = clings_process(course.path());
                let mut command = Command::new("unshare");
                command
                    .args(["--mount", "--propagation", "private", "--", "sh", "-c"])
                    .arg(format!(
                        "mount -t tmpfs -o {option},size=1m tmpfs \"$0\" && exec \"$@\""
                    ))
                    .arg(broken.path())
                    .arg(clings.get_program())
                    .args(["test", "sum"])
                    .current_dir(course.path())
                    .env("LANG", "C")
                    .env("TMPDIR", tmpdir)
                    .env("CLINGS_ISOLATION", isolation)
                    .env("CLINGS_BUILD_CACHE", "off");
                command.output().unwrap()
            };
            let refused = run(broken.path());
            let stderr = stderr_of(&refused);
            assert_eq!(
                refused.status.code(),
                Some(2),
                "{option} {isolation}: {stderr}"
            );
            let named = format!("the temporary directory {}", broken.path().display());
            assert!(
                stderr.contains(&named) && stderr.contains(said) && stderr.contains("set TMPDIR"),
                "{option} {isolation}: {stderr}"
            );
            let fixed = run(working.path());
            assert_eq!(
                fixed.status.code(),
                Some(0),
                "{option} {isolation}: {}",
                stderr_of(&fixed)
            );
        }
    }
}
