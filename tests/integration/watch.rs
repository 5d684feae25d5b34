//! Watch mode in a real terminal: `clings` runs inside tmux; the tests save files, press
//! keys and read the screen back with capture-pane. They wait for what they look for on a
//! screen drawn in full, never sleep as proof, and act "during a run" only once they have
//! seen the student's program running among the processes of their own clings.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;
use tempfile::TempDir;

/// How long to wait for what must come: a cold compile and a check of every exercise on a
/// busy two-core machine take a few seconds. Only a failing test waits this long.
const DEADLINE: Duration = Duration::from_secs(30);
const WIDTH: u32 = 120;
const HEIGHT: u32 = 50;

/// A student's program that waits, using no CPU, until the time limit stops it: a run
/// that lasts as long as the test needs, however busy the machine is.
const SLEEPER: &str = "\
#include <unistd.h>

int main(void)
{
    for (;;)
        pause();
}
";

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
    /// `None` when tmux is not installed (which fails the test under CI).
    fn start(course: TempDir, args: &[&str], lang: &str) -> Option<Tmux> {
        Tmux::start_with(course, args, lang, &[], (WIDTH, HEIGHT))
    }

    /// The same with more environment variables for clings, in a window of `size`
    /// (columns, rows).
    fn start_with(
        course: TempDir,
        args: &[&str],
        lang: &str,
        env: &[(&str, &str)],
        (width, height): (u32, u32),
    ) -> Option<Tmux> {
        if !require(
            Command::new("tmux").arg("-V").output().is_ok(),
            "tmux is not installed (`sudo apt install tmux`; .ci/run installs it)",
        ) {
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
        // clings is not the shell's last command, so the shell forks it: clings is a
        // child of the pane's process (see `clings_pid`).
        let shell = format!(
            "{}; echo clings-exit=$?; stty -a; sleep 600",
            command.join(" ")
        );
        let mut tmux = Tmux {
            socket,
            socket_path: None,
            course,
        };
        let mut new_session = tmux.command();
        new_session
            .args(["new-session", "-d", "-x", &width.to_string()])
            .args(["-y", &height.to_string(), "-c"])
            .arg(tmux.course.path())
            .args(["-e", &format!("LANG={lang}")])
            // What clings keeps for the whole machine stays with the test.
            .args([
                "-e",
                &format!(
                    "XDG_CACHE_HOME={}",
                    tmux.course.path().join(".clings/user-cache").display()
                ),
            ]);
        for (name, value) in env {
            new_session.args(["-e", &format!("{name}={value}")]);
        }
        let status = new_session
            .arg(&shell)
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

    /// Waits until a screen clings has finished drawing satisfies `ready`, and returns it:
    /// whatever the test asserts on it belongs to one whole frame. Fails with the screen
    /// after the deadline.
    fn wait_until(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        self.wait_raw(&format!("{what}, on a whole frame"), |screen| {
            drawn(screen) && ready(screen)
        })
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |screen| screen.contains(text))
    }

    /// `wait_for`, with nothing running (the status line of watching with notifications,
    /// in English): keys then act at once. A key pressed during a run waits for its end,
    /// and of several such keys only the last would act. (A save just after clings starts
    /// may reach the first compile and be graded twice: the first result is on screen
    /// while the second run goes on.)
    fn wait_idle_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}, with nothing running"), |screen| {
            screen.contains(text) && screen.contains("Watching: every save runs")
        })
    }

    /// Waits for any screen satisfying `ready`: for what the pane shows after clings ended.
    fn wait_raw(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            if start.elapsed() > DEADLINE {
                panic!("waited {DEADLINE:?} for {what}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
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

    /// After clings ended: it ended with exit status 0, raw mode is off and the cursor back.
    fn assert_exited_and_restored(&self) {
        self.assert_ended_and_restored(0);
    }

    /// After clings ended: its exit status was `status`, raw mode is off and the cursor back.
    fn assert_ended_and_restored(&self, status: i32) {
        // `stty -a` runs after clings: its report names icanon, with a `-` if it is off.
        let screen = self.wait_raw("stty's report", |screen| screen.contains("icanon"));
        assert!(
            screen.contains(&format!("clings-exit={status}\n")),
            "{screen}"
        );
        let settings: Vec<&str> = screen.split_whitespace().collect();
        assert!(
            settings.contains(&"icanon") && settings.contains(&"echo"),
            "the terminal is still in raw mode:\n{screen}"
        );
        assert!(self.cursor_visible(), "the cursor is still hidden");
    }

    /// The process id of the clings under test: the child of the pane's shell that runs
    /// the clings binary.
    fn clings_pid(&self) -> u32 {
        let output = self
            .command()
            .args(["display-message", "-p", "#{pane_pid}"])
            .output()
            .expect("display-message");
        let pane: u32 = String::from_utf8_lossy(&output.stdout)
            .trim()
            .parse()
            .expect("the pane's process id");
        let binary = std::fs::canonicalize(env!("CARGO_BIN_EXE_clings")).unwrap();
        let start = Instant::now();
        loop {
            let clings = live_processes().into_iter().find(|(pid, parent)| {
                *parent == pane
                    && std::fs::read_link(format!("/proc/{pid}/exe")).ok() == Some(binary.clone())
            });
            if let Some((pid, _)) = clings {
                return pid;
            }
            assert!(start.elapsed() < DEADLINE, "clings never started");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the student's program runs under this clings (a run is then surely in
    /// progress), and returns what the run is made of at that moment.
    fn wait_for_program(&self) -> Run {
        let clings = self.clings_pid();
        let start = Instant::now();
        loop {
            let under = descendants(clings);
            let (programs, commands): (Vec<Process>, Vec<String>) = under
                .iter()
                .filter_map(|pid| Some((Process::of(*pid)?, students_program(*pid)?)))
                .unzip();
            if !programs.is_empty() {
                let processes = under.iter().filter_map(|pid| Process::of(*pid)).collect();
                return Run {
                    programs,
                    commands,
                    processes,
                    seen: Instant::now(),
                };
            }
            assert!(
                start.elapsed() < DEADLINE,
                "the student's program never ran; the screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
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

/// Whether `screen` shows a whole frame. clings clears the screen, then writes the frame,
/// whose last line is the keys (or the reset question); the terminal may show a frame of
/// which only the start has arrived (a capture once ended at "0/1 poin"), so a frame is
/// whole when it ends as the last line does.
fn drawn(screen: &str) -> bool {
    let last = screen
        .lines()
        .map(str::trim_end)
        .rfind(|line| !line.is_empty())
        .unwrap_or("");
    ["q quit", "q 退出", "Esc back", "Esc 返回", "[y/N]"]
        .iter()
        .any(|end| last.ends_with(end))
}

/// One process, named by its id and its start time (clock ticks since boot): an id
/// may be used again once the process is gone, the pair is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Process {
    pid: u32,
    started: u64,
}

impl Process {
    /// The process `pid`, unless it is gone or a zombie (ended, not yet reaped).
    fn of(pid: u32) -> Option<Process> {
        let (state, _, started) = stat(pid)?;
        (state != "Z").then_some(Process { pid, started })
    }

    fn alive(&self) -> bool {
        Process::of(self.pid) == Some(*self)
    }
}

/// The processes of one run, as seen once its student's program ran.
struct Run {
    /// The student's programs (one per case running at once), and their commands.
    programs: Vec<Process>,
    commands: Vec<String>,
    /// Everything under clings then: the programs, bubblewrap and clings' helper.
    processes: Vec<Process>,
    /// When the programs were seen running.
    seen: Instant,
}

/// From /proc/PID/stat: the state, the parent and the start time.
fn stat(pid: u32) -> Option<(String, u32, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis, from the third: the state
    // (3), the parent (4), ..., the start time (22).
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    Some((
        fields.first()?.to_string(),
        fields.get(1)?.parse().ok()?,
        fields.get(19)?.parse().ok()?,
    ))
}

/// Every live process with its parent.
fn live_processes() -> Vec<(u32, u32)> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|entry| entry.file_name().to_string_lossy().parse::<u32>().ok())
        .filter_map(|pid| match stat(pid)? {
            (state, _, _) if state == "Z" => None,
            (_, parent, _) => Some((pid, parent)),
        })
        .collect()
}

/// The live processes descending from `root`, by their parent links. bubblewrap's
/// sandbox is a pid namespace of its own, but from outside its processes have ids and
/// parents like any other.
fn descendants(root: u32) -> Vec<u32> {
    let processes = live_processes();
    let mut under = vec![root];
    let mut next = 0;
    while next < under.len() {
        let parent = under[next];
        under.extend(
            processes
                .iter()
                .filter(|(_, of)| *of == parent)
                .map(|(pid, _)| *pid),
        );
        next += 1;
    }
    under.remove(0);
    under
}

/// Whether `pid` is a kept sandbox's bubblewrap or helper (docs/security.md, "Warm sandboxes").
fn waits_for_runs(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .is_ok_and(|line| String::from_utf8_lossy(&line).contains("--clings-sandbox-server"))
}

/// `pid`'s command if it is a student's program: with isolation it runs as `/program` inside
/// bubblewrap, without it as `.program` in the run's scratch directory
/// (`clings-run-*/.program`); the test course's programs take no arguments. Before its
/// exec the process is still clings' helper, whose last argument is the program's path,
/// and the compiler runs under the same helper: neither matches.
fn students_program(pid: u32) -> Option<String> {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let cmdline = String::from_utf8_lossy(&cmdline);
    let args: Vec<&str> = cmdline.trim_end_matches('\0').split('\0').collect();
    match args[..] {
        [program]
            if program == "/program"
                || (program.ends_with("/.program") && program.contains("/clings-run-")) =>
        {
            Some(program.to_string())
        }
        _ => None,
    }
}

/// The test course with `program` (C source) as `sum`'s solution and `time_limit_ms` as
/// every case's time limit.
fn course_with(program: &str, time_limit_ms: u64) -> TempDir {
    let course = copy_course(&repo().join("tests/course"));
    std::fs::write(course.path().join("exercises/sum.c"), program).unwrap();
    let info = course.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    assert!(text.contains("time_limit_ms = 1000\n"), "{text}");
    let text = text.replace(
        "time_limit_ms = 1000\n",
        &format!("time_limit_ms = {time_limit_ms}\n"),
    );
    std::fs::write(info, text).unwrap();
    course
}

/// The source of `tests/programs/<name>.c`.
fn program(name: &str) -> String {
    std::fs::read_to_string(repo().join(format!("tests/programs/{name}.c"))).unwrap()
}

/// Saves `content` as the course's `file` the way vim and VS Code do: a new file renamed
/// over the old one, so the exercise is never seen half-written.
fn save(course: &Path, file: &str, content: &str) {
    let target = course.join(file);
    let staged = target.with_file_name(".clings-test-save.swp");
    std::fs::write(&staged, content).unwrap();
    std::fs::rename(&staged, target).unwrap();
}

fn median(mut durations: Vec<Duration>) -> Duration {
    durations.sort();
    durations[durations.len() / 2]
}

/// Saves `sum.c`, alternately right and wrong, `saves` times, each once the last result
/// is in and nothing runs, and returns how long each took to show on screen. Both
/// versions are graded once first, so that every timed save finds its build in the
/// cache: what is timed is noticing the save and running two tiny cases, not gcc.
/// `idle` is the status line's text when nothing runs; `passed` and `failed` say which
/// result is on screen.
fn time_saves(tmux: &Tmux, saves: usize, idle: &str, passed: &str, failed: &str) -> Vec<Duration> {
    let versions = [
        (program("passing"), passed),
        (program("wrong_output"), failed),
    ];
    let mut times = Vec::new();
    for round in 0..saves + 2 {
        let (content, result) = &versions[round % 2];
        save(tmux.path(), "exercises/sum.c", content);
        let saved = Instant::now();
        tmux.wait_until(&format!("{result:?} with {idle:?}"), |screen| {
            screen.contains(result) && screen.contains(idle)
        });
        if round >= 2 {
            times.push(saved.elapsed());
        }
    }
    times
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
    let solution = std::fs::read_to_string(tmux.path().join("solutions/hello.c")).unwrap();
    save(tmux.path(), "exercises/hello.c", &solution);
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

/// docs/student-guide.md, "Watch mode": "`q` and `Ctrl-C` quit at once and stop the program
/// being graded". Presses `key` while the student's program runs, in a run that would go on for
/// half a minute: clings must end at once, give the terminal back, and leave nothing of the run
/// behind. `env` is clings' environment; `program`, how the program's command ends, says
/// whether the run was isolated as expected.
fn quit_mid_run(key: &str, env: &[(&str, &str)], program: &str) {
    // docs/student-guide.md: 130 when stopped by Ctrl-C, as a shell reports it.
    let status = if key == "C-c" { 130 } else { 0 };
    const RUN: Duration = Duration::from_secs(30);
    /// Far below the run's length, far above what ending takes on a loaded machine.
    const AT_ONCE: Duration = Duration::from_secs(5);
    /// From clings' end on screen to the last process of the run gone.
    const GONE: Duration = Duration::from_millis(500);
    let course = course_with(SLEEPER, RUN.as_millis() as u64);
    let Some(tmux) = Tmux::start_with(course, &[], "C", env, (WIDTH, HEIGHT)) else {
        return;
    };
    let run = tmux.wait_for_program();
    assert!(
        run.commands
            .iter()
            .all(|command| command.ends_with(program)),
        "{:?}",
        run.commands
    );
    tmux.keys(&[key]);
    let pressed = Instant::now();
    tmux.wait_raw("clings to end", |screen| screen.contains("clings-exit="));
    let took = pressed.elapsed();
    assert!(took < AT_ONCE, "{key} took {took:?} to quit during a run");
    tmux.assert_ended_and_restored(status);
    // Left alone, the program would wait until the time limit; it goes with clings, and
    // so does the rest of the run (bubblewrap, clings' helper): the kernel kills them as
    // clings ends, they only need to be scheduled to exit. The bound is tight because a
    // later clings (another test's) removes what a dead one left, within seconds.
    let start = Instant::now();
    loop {
        let left: Vec<&Process> = run.processes.iter().filter(|p| p.alive()).collect();
        if left.is_empty() {
            break;
        }
        assert!(
            start.elapsed() < GONE,
            "still running {:?} after clings quit: {left:?} (programs: {:?})",
            start.elapsed(),
            run.programs
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    eprintln!("gone {:?} after clings was seen ending", start.elapsed());
}

#[test]
fn q_mid_run_quits_at_once_and_stops_the_program() {
    quit_mid_run("q", &[], "/program");
}

#[test]
fn ctrl_c_mid_run_restores_the_terminal_and_stops_the_program() {
    quit_mid_run("C-c", &[], "/program");
}

/// docs/student-guide.md, "Watch mode": Ctrl-C quits with exit status 130 while nothing runs
/// too (the exercise graded, clings waiting for a save or a key), the terminal put back.
#[test]
fn ctrl_c_while_idle_exits_130_with_the_terminal_restored() {
    let Some(tmux) = Tmux::start(sum_course("wrong_output"), &[], "C") else {
        return;
    };
    tmux.wait_idle_for("0/2 cases passed");
    tmux.keys(&["C-c"]);
    tmux.assert_ended_and_restored(130);
}

/// Without isolation (no bubblewrap, or namespaces forbidden) the program is stopped by
/// clings' helper, which the kernel signals when clings ends, instead of by bubblewrap.
#[test]
fn q_mid_run_stops_the_program_without_isolation_too() {
    quit_mid_run("q", &[("CLINGS_ISOLATION", "none")], "/.program");
}

/// docs/student-guide.md, "Watch mode": "A save during a run is not lost: the run of the file
/// as it was is stopped at once and the new file graded". The old program sleeps until its 3 s
/// limit; the saved fix is graded long before that, and the old program is gone.
#[test]
fn a_save_during_a_run_stops_it_and_grades_the_new_file_at_once() {
    const LIMIT: Duration = Duration::from_secs(3);
    let course = course_with(SLEEPER, LIMIT.as_millis() as u64);
    let Some(tmux) = Tmux::start(course, &[], "C") else {
        return;
    };
    let run = tmux.wait_for_program();
    save(tmux.path(), "exercises/sum.c", &program("passing"));
    assert!(
        run.programs.iter().any(Process::alive),
        "the run ended before the save: the test proves nothing"
    );
    let screen = tmux.wait_for("✓ sum passed!");
    assert!(screen.contains("2/2 cases passed"), "{screen}");
    let waited = run.seen.elapsed();
    assert!(
        waited < LIMIT - Duration::from_millis(500),
        "the new file was graded {waited:?} after the old run started: only once it ended?"
    );
    assert!(
        !run.programs.iter().any(Process::alive),
        "the old run's program outlived its grading"
    );
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

/// docs/student-guide.md, "Watch mode": "A key pressed during a run takes effect when its
/// result is in". `h` during a run that lasts until its time limit: the screen says it waits,
/// and the hint comes with the result. The limit leaves a loaded machine (CI runs the tests in
/// parallel) seconds between the key and the look at the program; 2 s once did not.
#[test]
fn a_key_during_a_run_takes_effect_when_the_result_is_in() {
    let Some(tmux) = Tmux::start(course_with(SLEEPER, 6000), &[], "C") else {
        return;
    };
    let run = tmux.wait_for_program();
    tmux.keys(&["h"]);
    let screen = tmux.wait_for("Still running: the key takes effect when the result is in");
    assert!(!screen.contains("Hint 1 of 2"), "{screen}");
    assert!(
        run.programs.iter().any(Process::alive),
        "the run ended before the key was answered: the test proves nothing"
    );
    let screen = tmux.wait_for("Hint 1 of 2 (sum): Read two integers");
    assert!(screen.contains("0/2 cases passed"), "{screen}");
    assert!(screen.contains("timeout"), "{screen}");
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

/// docs/student-guide.md, "Watch mode": "a change is graded 30 ms after the last notification
/// about it". From the save to its result on screen, with the build cached: the debounce, two
/// runs of a tiny program, a redraw. A 1 s debounce would take over a second every time.
#[test]
fn a_save_is_graded_a_debounce_after_it() {
    /// Median of the saves: 30 ms of debounce, and a margin for a loaded machine.
    const BOUND: Duration = Duration::from_millis(630);
    let Some(tmux) = Tmux::start(sum_course("wrong_output"), &[], "C") else {
        return;
    };
    let idle = "Watching: every save runs the exercise again.";
    tmux.wait_until("the first result", |screen| {
        screen.contains("0/2 cases passed") && screen.contains(idle)
    });
    let times = time_saves(&tmux, 5, idle, "✓ sum passed!", "0/2 cases passed");
    eprintln!("from save to screen, notified: {times:?}");
    assert!(median(times.clone()) < BOUND, "{times:?}");
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

/// docs/student-guide.md, "Watch mode": "The files are also looked at every half second" and
/// `--poll` uses polling only; in Chinese, the screen's texts too. Every save is graded within
/// the half second of polling, the debounce, and a margin for the run and a loaded machine.
/// (Saved right after the last result, the saves keep step with the polling: each takes about
/// one period, two when a run takes more than 0.4 s; a 1 s period may pass, 1.5 s does not.)
#[test]
fn polling_notices_saves_in_chinese() {
    const BOUND: Duration = Duration::from_millis(500 + 100 + 600);
    let Some(tmux) = Tmux::start(sum_course("wrong_output"), &["--poll"], "zh_CN.UTF-8") else {
        return;
    };
    let idle = "每半秒检查一次是否保存（--poll）。";
    let screen = tmux.wait_until("the first result", |screen| {
        screen.contains("通过 0/2 个用例") && screen.contains(idle)
    });
    assert!(screen.contains("两数相加"), "{screen}");
    assert!(screen.contains("n 下一个"), "{screen}");
    let times = time_saves(&tmux, 5, idle, "✓ sum 通过了！", "通过 0/2 个用例");
    eprintln!("from save to screen, polled: {times:?}");
    assert!(times.iter().all(|took| *took < BOUND), "{times:?}");
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

/// docs/student-guide.md, "Watch mode": "The files are also looked at every half second, which
/// catches saves that notifications miss", without `--poll` too. A write through a hard link in
/// another directory changes the exercise with no notification on the exercises' directory
/// (inotify reports a change to the directory the file was reached through): only the polling
/// can see it, within its half second, the debounce, and a margin for the run.
#[test]
fn polling_catches_a_save_notifications_miss() {
    const BOUND: Duration = Duration::from_millis(500 + 100 + 900);
    let Some(tmux) = Tmux::start(sum_course("wrong_output"), &[], "C") else {
        return;
    };
    tmux.wait_idle_for("0/2 cases passed");
    // Both versions built first, by saves that are notified: what is timed is the polling.
    save(tmux.path(), "exercises/sum.c", &program("passing"));
    tmux.wait_idle_for("✓ sum passed!");
    save(tmux.path(), "exercises/sum.c", &program("wrong_output"));
    tmux.wait_idle_for("0/2 cases passed");
    let elsewhere = tmux.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::hard_link(tmux.path().join("exercises/sum.c"), elsewhere.join("sum.c")).unwrap();
    // In place, as editors that truncate and write do: the same inode, the same length.
    std::fs::write(elsewhere.join("sum.c"), program("passing")).unwrap();
    let saved = Instant::now();
    tmux.wait_for("✓ sum passed!");
    let took = saved.elapsed();
    assert!(took < BOUND, "seen after {took:?}");
    tmux.keys(&["q"]);
    tmux.assert_exited_and_restored();
}

/// docs/student-guide.md, "Watch mode": "`clings --manual` runs only when you press `r`". That
/// a save does not run is shown against a control: a second clings, polling, gets the same
/// save, notices it and grades it; by then, and a polling period and a debounce after the save,
/// the manual one has still started nothing.
#[test]
fn manual_mode_runs_only_on_r() {
    let Some(manual) = Tmux::start(sum_course("wrong_output"), &["--manual"], "C") else {
        return;
    };
    let Some(control) = Tmux::start(sum_course("wrong_output"), &["--poll"], "C") else {
        return;
    };
    let idle = "Manual mode: press r to run after saving.";
    let screen = manual.wait_until("the first result, idle", |screen| {
        screen.contains("wrong_output  01_small") && screen.contains(idle)
    });
    assert!(
        screen.contains("Save exercises/sum.c, then press r to run it again"),
        "{screen}"
    );
    control.wait_for("Looking for saves every half second");
    let clings = manual.clings_pid();
    let passing = program("passing");
    save(manual.path(), "exercises/sum.c", &passing);
    save(control.path(), "exercises/sum.c", &passing);
    let saved = Instant::now();
    control.wait_for("✓ sum passed!");
    let margin = Duration::from_millis(500 + 100 + 200);
    std::thread::sleep(margin.saturating_sub(saved.elapsed()));
    let screen = manual.wait_until("a whole frame", |_| true);
    assert!(
        screen.contains("wrong_output  01_small") && screen.contains(idle),
        "the manual clings ran the save: {screen}"
    );
    // The sandboxes kept for its runs wait, idle: no compiler, no program.
    let started: Vec<u32> = descendants(clings)
        .into_iter()
        .filter(|pid| !waits_for_runs(*pid))
        .collect();
    assert!(
        started.is_empty(),
        "the manual clings compiles or runs: {started:?}"
    );
    manual.keys(&["r"]);
    manual.wait_for("✓ sum passed!");
    manual.keys(&["q"]);
    manual.assert_exited_and_restored();
}

#[test]
fn list_check_all_and_reset() {
    let Some(tmux) = Tmux::start(copy_course(&repo()), &[], "C") else {
        return;
    };
    tmux.wait_for("print_board — Draw the board");
    let solution = std::fs::read_to_string(repo().join("solutions/print_board.c")).unwrap();
    save(tmux.path(), "exercises/print_board.c", &solution);
    tmux.wait_idle_for("✓ print_board passed!");

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
    tmux.keys(&["Down"]);
    tmux.wait_until("the cursor on check_win", |screen| {
        screen
            .lines()
            .any(|row| row.starts_with("> → current") && row.contains("check_win"))
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("check_win — Who has five in a row?");
    // The report is taller than the window: its title has scrolled away by now.
    tmux.wait_until("check_win's result", |screen| {
        screen.contains("/44 cases passed")
            && screen.contains("Save exercises/check_win.c")
            && screen.contains("Watching: every save runs")
    });
    tmux.keys(&["l", "k", "Enter"]);
    tmux.wait_until("print_board open again", |screen| {
        screen.contains("print_board — Draw the board")
            && screen.contains("print_board passed")
            && screen.contains("Watching: every save runs")
    });

    // `Esc` leaves the list for the exercise on screen.
    tmux.keys(&["l"]);
    tmux.wait_for("Enter open");
    tmux.keys(&["Escape"]);
    tmux.wait_until("print_board again, the list left", |screen| {
        screen.contains("print_board — Draw the board") && !screen.contains("Enter open")
    });

    // `c` grades every exercise.
    tmux.keys(&["c"]);
    let screen = tmux.wait_idle_for("1 passed, 11 failed");
    assert!(screen.contains("Every exercise, graded again:"), "{screen}");

    // `x` asks first; only `y` resets.
    tmux.keys(&["x"]);
    tmux.wait_for("Reset exercises/print_board.c to the original skeleton?");
    tmux.keys(&["n"]);
    tmux.wait_for("Nothing was changed.");
    assert_eq!(
        std::fs::read_to_string(tmux.path().join("exercises/print_board.c")).unwrap(),
        solution
    );
    tmux.keys(&["x"]);
    tmux.wait_for("[y/N]");
    tmux.keys(&["y"]);
    tmux.wait_for("exercises/print_board.c is back to its original skeleton.");
    let screen = tmux.wait_idle_for("0/1 cases passed");
    assert!(screen.contains("0/12 exercises done"), "{screen}");
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

/// A watch screen with its timings (`12 ms`, `Last run: 0.26 s`) replaced and trailing
/// blanks dropped, to compare what two runs drew.
fn without_timings(screen: &str) -> String {
    let words = |line: &str| -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut kept = Vec::new();
        for (index, word) in words.iter().enumerate() {
            let unit = words.get(index + 1).copied();
            let timing = matches!(unit, Some("ms" | "s" | "s."))
                && word.chars().all(|c| c.is_ascii_digit() || c == '.');
            kept.push(if timing { "N" } else { word });
        }
        // Column alignment follows the timing's width: compare words, not spaces.
        kept.join(" ")
    };
    screen
        .trim_end()
        .lines()
        .map(words)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Issue 12: in an 80x24 terminal the first failing case's diff and its hint are on
/// screen with the keys (the whole check_win report is some 120 lines), and hints wrap
/// between words.
#[test]
fn the_first_failure_fits_an_80_by_24_terminal() {
    let course = copy_course(&repo());
    std::fs::copy(
        repo().join("solutions/wrong/check_win/missing_anti_diagonal.c"),
        course.path().join("exercises/check_win.c"),
    )
    .unwrap();
    std::fs::copy(
        repo().join("solutions/print_board.c"),
        course.path().join("exercises/print_board.c"),
    )
    .unwrap();
    let progress = r#"{ "current": "check_win", "done": ["print_board"], "hints": {} }"#;
    std::fs::write(course.path().join(".clings-state.json"), progress).unwrap();
    let Some(tmux) = Tmux::start_with(course, &[], "C", &[], (80, 24)) else {
        return;
    };
    let screen = tmux.wait_idle_for("--- expected");
    for shown in [
        "+++ your output",
        "-black",
        "+none",
        "hint:",
        "passed",
        "q quit",
    ] {
        assert!(
            screen.contains(shown),
            "{shown:?} is not on screen:\n{screen}"
        );
    }
    assert!(screen.lines().count() <= 24, "{screen}");
    // The README shows this very screen (timings aside): it is the course as shipped.
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let shown = readme
        .split("```text\n")
        .nth(1)
        .and_then(|block| block.split("\n```").next())
        .expect("README.md has a text block: the watch screen");
    assert_eq!(
        without_timings(shown),
        without_timings(&screen),
        "README.md's watch screen is not what clings draws; the screen now:\n{screen}"
    );
    // The hint, 80 columns wide, breaks between words.
    tmux.keys(&["h"]);
    let screen = tmux.wait_idle_for("Hint 1 of 5");
    for line in screen.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    let words: Vec<&str> = screen.split_whitespace().collect();
    assert!(
        words.contains(&"question") && !words.contains(&"ques"),
        "a word was cut: {screen}"
    );
}

/// docs/student-guide.md, "Commands": Ctrl-C stops clings with exit status 130. At `reset`'s
/// question no grading is under way: clings ends at once, and the file is left as it was.
#[test]
fn ctrl_c_at_the_reset_question_ends_clings_and_resets_nothing() {
    let course = sum_course("passing");
    let file = course.path().join("exercises/sum.c");
    let before = std::fs::read(&file).unwrap();
    let Some(tmux) = Tmux::start(course, &["reset", "sum"], "C") else {
        return;
    };
    tmux.wait_raw("the question", |screen| screen.contains("Reset "));
    tmux.keys(&["C-c"]);
    let screen = tmux.wait_raw("clings to end", |screen| screen.contains("clings-exit="));
    assert!(screen.contains("clings-exit=130"), "{screen}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn a_battle_in_a_terminal_draws_the_board_move_by_move_then_the_five() {
    let args = ["battle", "strong", "priorities", "--delay", "100"];
    let Some(tmux) = Tmux::start(copy_course(&repo()), &args, "C") else {
        return;
    };
    // A board in the middle of the game: its move counter, the last move marked.
    let middle = tmux.wait_raw("the board after move 5", |screen| {
        screen.contains("move 5\n")
    });
    assert!(
        middle.contains("strong (X) against priorities (O)"),
        "{middle}"
    );
    assert!(middle.contains("(O)") || middle.contains("(X)"), "{middle}");
    assert!(
        !middle.contains("won in"),
        "drawn during the game: {middle}"
    );
    // The end: one board (the last drawn replaced), with the five, and the result.
    let end = tmux.wait_raw("the result", |screen| screen.contains("clings-exit=0"));
    assert!(end.contains("won in"), "{end}");
    assert_eq!(end.matches("    0  1  2").count(), 1, "{end}");
    assert!(end.matches('[').count() >= 5, "the five in brackets: {end}");
}

/// docs/student-guide.md, "Watch mode": in a folder made by `clings init`, watch mode says that
/// a passed exercise's reference solution is now in solutions/, and it is there.
#[test]
fn watch_mode_says_where_an_earned_solution_is() {
    let folder = tempfile::tempdir().unwrap();
    clings(folder.path())
        .args(["init", ".", "--from"])
        .arg(repo().join("tests/course"))
        .assert()
        .code(0);
    let Some(tmux) = Tmux::start(folder, &[], "C") else {
        return;
    };
    tmux.wait_for("your program printed nothing");
    save(tmux.path(), "exercises/sum.c", &program("passing"));
    tmux.wait_for("reference solution is now in solutions/sum.c");
    assert_eq!(
        std::fs::read(tmux.path().join("solutions/sum.c")).unwrap(),
        std::fs::read(repo().join("tests/course/solutions/sum.c")).unwrap()
    );
}

/// docs/student-guide.md, "Watch mode": on an 80x24 screen with hints shown, the first failing
/// case's verdict, its hint (the line that names the mistake) and the start of its diff are all
/// in sight, every line wrapped at a space, and the newest hint is the one kept.
#[test]
fn a_small_screen_shows_the_failing_case_s_hint_and_diff_first() {
    let course = copy_course(&repo());
    let root = course.path();
    std::fs::copy(
        repo().join("solutions/print_board.c"),
        root.join("exercises/print_board.c"),
    )
    .unwrap();
    std::fs::copy(
        repo().join("solutions/wrong/check_win/missing_anti_diagonal.c"),
        root.join("exercises/check_win.c"),
    )
    .unwrap();
    clings(root).args(["run", "print_board"]).assert().code(0);
    for _ in 0..2 {
        clings(root).arg("hint").assert().code(0);
    }
    let Some(tmux) = Tmux::start_with(course, &[], "C", &[], (80, 24)) else {
        return;
    };
    tmux.wait_for("09_black_anti_diagonal");
    tmux.keys(&["h"]);
    let screen = tmux.wait_for("Hint 3 of 5");
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines.len() <= 24, "{screen}");
    let joined = lines
        .iter()
        .map(|line| line.trim())
        .collect::<Vec<_>>()
        .join(" ");
    // The hint of the mistake the results show (check_win's `missing_anti_diagonal`).
    let case_hint = "Every line is found but those going down-left";
    for shown in [
        "wrong_output 09_black_anti_diagonal",
        "your output differs from the expected output",
        case_hint,
        "--- expected",
        "-black",
        "+none",
        "Hint 3 of 5 (check_win):",
    ] {
        let squeezed = joined.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            squeezed.contains(shown),
            "{shown:?} is not on screen:\n{screen}"
        );
    }
    // Wrapped at spaces: the case hint's rows hold its words whole, in order.
    let hint_row = lines
        .iter()
        .position(|line| line.contains("hint: Every line"))
        .unwrap();
    let diff_row = lines
        .iter()
        .position(|line| line.contains("--- expected"))
        .unwrap();
    let words: Vec<&str> = lines[hint_row..diff_row]
        .iter()
        .flat_map(|line| line.split_whitespace())
        .collect();
    let sentence = "hint: Every line is found but those going down-left: the direction array \
                    needs {1,-1} (next row, previous column) among its four directions, and the \
                    loop must reach it (d < 4).";
    assert_eq!(
        words,
        sentence.split_whitespace().collect::<Vec<_>>(),
        "{screen}"
    );
    assert!(
        diff_row > hint_row + 1,
        "the hint fits one row of 80?\n{screen}"
    );
}
