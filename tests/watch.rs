//! Watch mode in a real terminal: `clings` runs inside tmux; the tests save files, press
//! keys and read the screen back with capture-pane, waiting for text instead of sleeping.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;
use tempfile::TempDir;

/// Long enough for a cold compile on a busy two-core machine running other tests.
const DEADLINE: Duration = Duration::from_secs(20);
const WIDTH: u32 = 120;
const HEIGHT: u32 = 50;

/// One tmux server of our own (private socket) running `clings` in a course; the server
/// and everything in it is killed on drop, whatever the test did.
struct Tmux {
    socket: String,
    /// tmux leaves its socket file behind when the server is killed.
    socket_path: Option<std::path::PathBuf>,
    course: TempDir,
}

impl Tmux {
    /// Starts `clings ARGS` in `course`; after clings ends, the pane prints its exit status
    /// and the terminal's settings, so the test can see that the terminal was restored.
    /// `None` when tmux is not installed.
    fn start(course: TempDir, args: &[&str], lang: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("SKIPPED: tmux is not installed (CI installs it in .ci/run)");
            return None;
        }
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "clings-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let mut command = vec![quote(env!("CARGO_BIN_EXE_clings"))];
        command.extend(args.iter().map(|arg| quote(arg)));
        let shell = format!(
            "{}; echo clings-exit=$?; stty -a; sleep 600",
            command.join(" ")
        );
        let mut tmux = Tmux {
            socket,
            socket_path: None,
            course,
        };
        let status = tmux
            .command()
            .args(["new-session", "-d", "-x", &WIDTH.to_string()])
            .args(["-y", &HEIGHT.to_string(), "-c"])
            .arg(tmux.course.path())
            .args(["-e", &format!("LANG={lang}"), &shell])
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("CC")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("TMUX")
            .status()
            .expect("run tmux");
        assert!(status.success(), "tmux new-session failed");
        let path = tmux
            .command()
            .args(["display-message", "-p", "#{socket_path}"])
            .output()
            .expect("display-message");
        tmux.socket_path = Some(String::from_utf8_lossy(&path.stdout).trim().into());
        Some(tmux)
    }

    fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command.args(["-L", &self.socket, "-f", "/dev/null"]);
        command
    }

    fn path(&self) -> &Path {
        self.course.path()
    }

    /// The visible screen, as text.
    fn screen(&self) -> String {
        let output = self
            .command()
            .args(["capture-pane", "-p"])
            .output()
            .expect("capture-pane");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until the screen satisfies `ready`; fails with the screen after the deadline.
    fn wait_until(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            if start.elapsed() > DEADLINE {
                panic!("waited {DEADLINE:?} for {what}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |screen| screen.contains(text))
    }

    fn keys(&self, keys: &[&str]) {
        let status = self
            .command()
            .arg("send-keys")
            .args(keys)
            .status()
            .expect("send-keys");
        assert!(status.success());
    }

    fn cursor_visible(&self) -> bool {
        let output = self
            .command()
            .args(["display-message", "-p", "#{cursor_flag}"])
            .output()
            .expect("display-message");
        String::from_utf8_lossy(&output.stdout).trim() == "1"
    }

    /// After clings ended: its exit status, and that raw mode is off and the cursor back.
    fn assert_exited_and_restored(&self) {
        // `stty -a` runs after clings: its report names icanon, with a `-` if it is off.
        let screen = self.wait_for("icanon");
        assert!(screen.contains("clings-exit=0"), "{screen}");
        let settings: Vec<&str> = screen.split_whitespace().collect();
        assert!(
            settings.contains(&"icanon") && settings.contains(&"echo"),
            "the terminal is still in raw mode:\n{screen}"
        );
        assert!(self.cursor_visible(), "the cursor is still hidden");
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").status();
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The processes clings started under the pane (the student's programs, and bubblewrap
/// and its helper when runs are isolated), found by walking /proc's parent links.
fn programs_under(tmux: &Tmux) -> Vec<u32> {
    let output = tmux
        .command()
        .args(["display-message", "-p", "#{pane_pid}"])
        .output()
        .expect("display-message");
    let Ok(pane) = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse::<u32>()
    else {
        return Vec::new();
    };
    let clings = std::fs::canonicalize(assert_cmd::cargo::cargo_bin!("clings")).unwrap();
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The fields after the command's closing parenthesis: state, then the parent.
        let mut fields = stat[stat.rfind(')').unwrap_or(0) + 1..].split_whitespace();
        let (state, parent) = (
            fields.next(),
            fields.next().and_then(|p| p.parse::<u32>().ok()),
        );
        if state != Some("Z")
            && let Some(parent) = parent
        {
            parents.push((pid, parent));
        }
    }
    let mut under = vec![pane];
    let mut grew = true;
    while grew {
        grew = false;
        for (pid, parent) in &parents {
            if under.contains(parent) && !under.contains(pid) {
                under.push(*pid);
                grew = true;
            }
        }
    }
    under
        .into_iter()
        .skip(1)
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/exe"))
                .ok()
                .as_deref()
                != Some(clings.as_path())
        })
        .collect()
}

/// Waits until the student's program runs: from then on, a run is surely in progress.
/// Returns the processes of the run.
fn wait_for_programs(tmux: &Tmux) -> Vec<u32> {
    let start = Instant::now();
    loop {
        let programs = programs_under(tmux);
        if !programs.is_empty() {
            return programs;
        }
        assert!(start.elapsed() < DEADLINE, "the program never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat[stat.rfind(')').unwrap_or(0) + 1..]
            .split_whitespace()
            .next()
            != Some("Z")
    })
}

#[test]
fn saves_are_graded_and_keys_work() {
    let Some(tmux) = Tmux::start(copy_course(&repo().join("tests/course")), &[], "C") else {
        return;
    };
    // The skeleton prints nothing.
    let screen = tmux.wait_for("your program printed nothing");
    assert!(screen.contains("sum — Add two numbers"), "{screen}");
    assert!(screen.contains("exercises/sum.c"), "{screen}");
    assert!(
        screen.contains("Progress: [") && screen.contains("0/2 exercises done"),
        "{screen}"
    );
    assert!(
        screen.contains("n next") && screen.contains("h hint") && screen.contains("q quit"),
        "the keys are on screen: {screen}"
    );
    assert!(tmux.wait_for("Watching").contains("every save"));
    assert!(
        !tmux.cursor_visible(),
        "the cursor is hidden while watching"
    );
    let flags = std::fs::read_to_string(tmux.path().join("compile_flags.txt")).unwrap();
    assert!(flags.lines().any(|flag| flag == "-std=c99"), "{flags}");

    // `n` does nothing before the exercise passes.
    tmux.keys(&["n"]);
    tmux.wait_for("sum does not pass yet");

    // A wrong solution: its diff appears.
    put_program(tmux.path(), "wrong_output");
    let screen = tmux.wait_until("the wrong solution's diff", |screen| {
        screen.contains("+-1") && !screen.contains("printed nothing")
    });
    assert!(screen.contains("wrong_output  01_small"), "{screen}");
    assert!(screen.contains("0/2 cases passed"), "{screen}");
    assert!(screen.contains("stuck? h shows hint 1 of 2"), "{screen}");

    tmux.keys(&["h"]);
    tmux.wait_for("Hint 1 of 2 (sum): Read two integers");

    // A right one: the celebration and the next step.
    put_program(tmux.path(), "passing");
    let screen = tmux.wait_for("✓ sum passed!");
    assert!(screen.contains("2/2 cases passed"), "{screen}");
    assert!(
        screen.contains("Next: hello — Say hello (press n to go on)"),
        "{screen}"
    );
    assert!(screen.contains("1/2 exercises done"), "{screen}");

    // hello's skeleton fails until its solution is saved.
    tmux.keys(&["n"]);
    tmux.wait_for("hello — Say hello");
    // Saved the way editors save, by a rename: one save, one run.
    let staged = tmux.path().join("exercises/.hello.c.swp");
    std::fs::copy(tmux.path().join("solutions/hello.c"), &staged).unwrap();
    std::fs::rename(&staged, tmux.path().join("exercises/hello.c")).unwrap();
    let screen = tmux.wait_for("✓ hello passed!");
    assert!(screen.contains("every exercise is done"), "{screen}");
    // Pressed the moment the result is in: if the save came during the skeleton's run,
    // one more run may still be finishing, and the key waits for it.
    tmux.keys(&["n"]);
    tmux.wait_for("Every exercise is done. Well played!");

    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
    let state: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(tmux.path().join(".clings-state.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(state["done"], serde_json::json!(["sum", "hello"]));
    assert_eq!(state["hints"]["sum"], 1);
}

#[test]
fn ctrl_c_mid_run_restores_the_terminal_and_stops_the_program() {
    let Some(tmux) = Tmux::start(sum_course("timeout"), &[], "C") else {
        return;
    };
    tmux.wait_for("Running sum…");
    let programs = wait_for_programs(&tmux);
    tmux.keys(&["C-c"]);
    tmux.assert_exited_and_restored();
    // Left alone, a program looping on EOF would run forever; it must go with clings.
    let start = Instant::now();
    while programs.iter().any(|pid| alive(*pid)) {
        let left: Vec<&u32> = programs.iter().filter(|pid| alive(**pid)).collect();
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "still running after clings quit: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_save_during_a_run_is_graded_when_the_run_ends() {
    // Each case of this program runs into the 1 s time limit: time enough to save.
    let Some(tmux) = Tmux::start(sum_course("timeout"), &[], "C") else {
        return;
    };
    wait_for_programs(&tmux);
    put_program(tmux.path(), "passing");
    tmux.wait_for("✓ sum passed!");
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

#[test]
fn manual_mode_runs_only_on_r() {
    let Some(tmux) = Tmux::start(sum_course("wrong_output"), &["--manual"], "C") else {
        return;
    };
    tmux.wait_for("wrong_output  01_small");
    tmux.wait_for("Manual mode: press r to run after saving.");
    tmux.wait_for("Save exercises/sum.c, then press r to run it again");
    put_program(tmux.path(), "passing");
    // Longer than the debounce and the polling interval together.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!tmux.screen().contains("sum passed"), "{}", tmux.screen());
    tmux.keys(&["r"]);
    tmux.wait_for("✓ sum passed!");
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

#[test]
fn polling_notices_saves_in_chinese() {
    let Some(tmux) = Tmux::start(sum_course("wrong_output"), &["--poll"], "zh_CN.UTF-8") else {
        return;
    };
    tmux.wait_for("两数相加");
    tmux.wait_for("每半秒检查一次是否保存");
    tmux.wait_for("n 下一个");
    put_program(tmux.path(), "passing");
    tmux.wait_for("✓ sum 通过了！");
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

#[test]
fn list_check_all_and_reset() {
    let Some(tmux) = Tmux::start(copy_course(&repo()), &[], "C") else {
        return;
    };
    tmux.wait_for("print_board — Draw the board");
    let solution = std::fs::read(repo().join("solutions/print_board.c")).unwrap();
    // Saved the way vim and VS Code do it: a new file renamed over the old one.
    let staged = tmux.path().join("exercises/.print_board.c.swp");
    std::fs::write(&staged, &solution).unwrap();
    std::fs::rename(&staged, tmux.path().join("exercises/print_board.c")).unwrap();
    tmux.wait_for("✓ print_board passed!");

    // The list shows progress, with the cursor on the exercise on screen; choosing an
    // exercise opens it.
    tmux.keys(&["l"]);
    let screen = tmux.wait_for("Enter open");
    assert!(
        screen
            .lines()
            .any(|row| row.starts_with(">   done") && row.contains("print_board")),
        "{screen}"
    );
    tmux.keys(&["j"]);
    tmux.wait_until("the cursor on check_win", |screen| {
        screen
            .lines()
            .any(|row| row.starts_with("> → current") && row.contains("check_win"))
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("check_win — Who has five in a row?");
    tmux.wait_for("cases passed");
    tmux.keys(&["l", "k", "Enter"]);
    tmux.wait_until("print_board open again", |screen| {
        screen.contains("print_board — Draw the board") && screen.contains("print_board passed")
    });

    // `c` grades every exercise.
    tmux.keys(&["c"]);
    let screen = tmux.wait_for("1 passed, 2 failed");
    assert!(screen.contains("Every exercise, graded again:"), "{screen}");

    // `x` asks first; only `y` resets.
    tmux.keys(&["x"]);
    tmux.wait_for("Reset exercises/print_board.c to the original skeleton?");
    tmux.keys(&["n"]);
    tmux.wait_for("Nothing was changed.");
    assert_eq!(
        std::fs::read(tmux.path().join("exercises/print_board.c")).unwrap(),
        solution
    );
    tmux.keys(&["x"]);
    tmux.wait_for("[y/N]");
    tmux.keys(&["y"]);
    tmux.wait_for("exercises/print_board.c is back to its original skeleton.");
    let screen = tmux.wait_for("0/1 cases passed");
    assert!(screen.contains("0/3 exercises done"), "{screen}");
    assert_eq!(
        std::fs::read_to_string(tmux.path().join("exercises/print_board.c")).unwrap(),
        std::fs::read_to_string(repo().join("exercises/print_board.c")).unwrap()
    );
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

#[test]
fn without_a_terminal_it_runs_next_once() {
    let course = sum_course("wrong_output");
    let output = clings(course.path()).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr_of(&output).contains("Watch mode needs a terminal"),
        "{}",
        stderr_of(&output)
    );
    let stdout = stdout_of(&output);
    assert!(
        stdout.contains("wrong_output") && stdout.contains("clings run sum"),
        "{stdout}"
    );
}
