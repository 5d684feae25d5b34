//! Issue 41: one host, many graders. Containers that start alike give clings the same pid,
//! and without a user namespace the kernel counts the runs of both as one user: a run's
//! user id must be unique on the kernel, not in one container.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::*;

/// A grader in a pid namespace of its own, as in a container, where clings is pid 2 (the
/// namespace's shell forks it): two of them give clings the same pid. In the container
/// tier the namespace is also without `CAP_SYS_ADMIN` and cgroups, as Docker's.
fn grader_in_pid_namespace(course: &Path, tier: Tier, args: &[&str]) -> std::process::Command {
    let clings = clings_process(course);
    let mut command = std::process::Command::new("unshare");
    command.args([
        "--mount",
        "--propagation",
        "private",
        "--pid",
        "--fork",
        "--mount-proc",
        "--",
        "sh",
        "-c",
    ]);
    let script = match tier {
        Tier::ContainerLike => {
            "mount -t tmpfs -o ro,size=4k tmpfs /sys/fs/cgroup && \
             setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- \"$@\"; exit $?"
        }
        _ => "\"$@\"; exit $?",
    };
    command.arg(script).arg("grader").arg(clings.get_program());
    command.arg("--require-isolation").args(args);
    command.current_dir(course);
    for (name, value) in clings.get_envs() {
        match value {
            Some(value) => command.env(name, value),
            None => command.env_remove(name),
        };
    }
    if tier == Tier::Bubblewrap {
        command.env("CLINGS_ISOLATION", "bubblewrap");
    }
    command
}

/// Two graders side by side in namespaces that give clings the same pid: one grades a
/// program that holds the most processes its limit allows (16, for 2.5 s a case, four
/// cases), the other the course's correct `sum`, three times meanwhile. Had both clings
/// given their runs the same user ids (from the pid, as before), the kernel would count
/// the second's compiles and runs with the first's held processes, and they could not
/// fork. Both in bubblewrap's tier and in the container tier.
#[test]
fn graders_in_containers_that_start_alike_do_not_share_their_runs_users() {
    let root = nix::unistd::geteuid().is_root();
    let tools = ["unshare", "setpriv", "bwrap"]
        .iter()
        .all(|tool| find_on_path(tool).is_some());
    if !require(root && tools, "needs root, unshare, setpriv and bubblewrap") {
        return;
    }
    let hog = program_course(&["hostile/holds_processes.c"], "time_limit_ms = 4000\n");
    let fixtures = hog.path().join("fixtures/holds_processes");
    std::fs::remove_dir_all(&fixtures).unwrap();
    std::fs::create_dir_all(&fixtures).unwrap();
    for case in ["01", "02", "03", "04"] {
        std::fs::write(fixtures.join(format!("{case}.in")), "").unwrap();
        std::fs::write(fixtures.join(format!("{case}.out")), "held 15\n").unwrap();
    }
    let sum = program_course(&["course/solutions/sum.c"], "");
    for tier in [Tier::Bubblewrap, Tier::ContainerLike] {
        let holder = grader_in_pid_namespace(hog.path(), tier, &["--jobs", "1", "test"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Its compile done and the first case holding its processes.
        let started = Instant::now();
        std::thread::sleep(Duration::from_millis(1500));
        for round in 0..3 {
            let output = grader_in_pid_namespace(sum.path(), tier, &["test", "--format", "json"])
                .output()
                .unwrap();
            let said = stderr_of(&output);
            assert_eq!(
                output.status.code(),
                Some(0),
                "{tier:?} round {round}: {said}"
            );
            let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(verdicts(&document, 0), ["passed", "passed"], "{tier:?}");
        }
        let overlapped = started.elapsed();
        let held = holder.wait_with_output().unwrap();
        let said = format!("{}{}", stdout_of(&held), stderr_of(&held));
        // The holder really held its processes all that while, and was not cut short.
        assert_eq!(held.status.code(), Some(0), "{tier:?}: {said}");
        assert!(
            overlapped < Duration::from_secs(10),
            "{tier:?}: the second grader ran {overlapped:?}, past the holder's 10 s"
        );
    }
}
