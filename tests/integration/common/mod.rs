//! Shared by the integration tests: copies of a course to break, and the real binary.
#![allow(dead_code)] // each test crate uses its own subset of these helpers

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;
use walkdir::WalkDir;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the course at `source` into a fresh directory, leaving out build products
/// and progress so every test starts clean.
pub fn copy_course(source: &Path) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in WalkDir::new(source).min_depth(1) {
        let entry = entry.expect("walk course");
        let relative = entry.path().strip_prefix(source).expect("inside course");
        let first = relative.components().next().expect("a component");
        if [
            ".clings",
            ".clings-state.json",
            "target",
            "src",
            "tests",
            ".git",
        ]
        .iter()
        .any(|skip| first.as_os_str() == *skip)
        {
            continue;
        }
        let target = dir.path().join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("create dir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
    dir
}

/// The test course (`tests/course`) with `tests/programs/<program>.c` as the student's
/// `sum` exercise.
pub fn sum_course(program: &str) -> TempDir {
    let dir = copy_course(&repo().join("tests/course"));
    put_program(dir.path(), program);
    dir
}

/// Puts the test course at `course` in chapters: `sum` in a graded one, `hello` in a
/// practice one, declared after its exercises (the exercises' order in the file does not
/// decide).
pub fn hello_as_practice(course: &Path) {
    let info = course.join("info.toml");
    let text = std::fs::read_to_string(&info).expect("info.toml");
    let text = text.replace(
        "name = \"hello\"\n",
        "name = \"hello\"\nchapter = \"after_class\"\n",
    ) + "\n[[chapters]]\nname = \"core\"\ntitle = { en = \"The core\", zh = \"核心\" }\n\n\
         [[chapters]]\nname = \"after_class\"\ntitle = { en = \"After class\", zh = \"课后\" }\n\
         graded = false\n";
    std::fs::write(&info, text).expect("write info.toml");
}

/// Adds `line` to the `[defaults]` table of the info.toml in `course`.
pub fn add_to_defaults(course: &Path, line: &str) {
    let info = course.join("info.toml");
    let text = std::fs::read_to_string(&info).expect("info.toml");
    let edited = text.replacen("[defaults]\n", &format!("[defaults]\n{line}\n"), 1);
    assert_ne!(edited, text, "no [defaults] table in {}", info.display());
    std::fs::write(&info, edited).expect("write info.toml");
}

/// Adds `line`, a key, to the `sum` exercise's own table (not its sub-tables) in the test
/// course at `course`.
pub fn add_key_to_sum(course: &Path, line: &str) {
    let info = course.join("info.toml");
    let text = std::fs::read_to_string(&info).expect("info.toml");
    let anchor = "path = \"exercises/sum.c\"\n";
    let edited = text.replacen(anchor, &format!("{anchor}{line}\n"), 1);
    assert_ne!(edited, text, "no sum exercise in {}", info.display());
    std::fs::write(&info, edited).expect("write info.toml");
}

/// A CI job's layout in a fresh directory: `course/` (a copy of the course at `source`),
/// `submission/` holding `programs` (`(file in tests/, name in the submission)`), and an
/// empty `hidden/<exercise>/` for hidden cases.
pub fn ci_layout(source: &Path, programs: &[(&str, &str)], exercise: &str) -> TempDir {
    let root = tempfile::tempdir().expect("temp dir");
    let course = copy_course(source);
    std::fs::rename(course.keep(), root.path().join("course")).expect("move the course");
    let submission = root.path().join("submission");
    for (program, name) in programs {
        let target = submission.join(name);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("submission dir");
        std::fs::copy(repo().join("tests").join(program), target).expect("copy program");
    }
    std::fs::create_dir_all(root.path().join("hidden").join(exercise)).expect("hidden dir");
    root
}

/// A course with one exercise per C file in `programs` (paths under `tests/`), each named
/// after its file and given the `sum` exercise's two cases; `defaults` is the body of its
/// `[defaults]` table.
pub fn program_course(programs: &[&str], defaults: &str) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut info = format!("format_version = 1\n\n[defaults]\n{defaults}");
    std::fs::create_dir_all(dir.path().join("exercises")).expect("exercises dir");
    for program in programs {
        let name = Path::new(program)
            .file_stem()
            .expect("a file name")
            .to_string_lossy();
        info.push_str(&format!(
            "\n[[exercises]]\nname = \"{name}\"\ntitle = \"{name}\"\npath = \"exercises/{name}.c\"\n"
        ));
        std::fs::copy(
            repo().join("tests").join(program),
            dir.path().join(format!("exercises/{name}.c")),
        )
        .expect("copy program");
        let fixtures = dir.path().join("fixtures").join(&*name);
        std::fs::create_dir_all(&fixtures).expect("fixtures dir");
        for entry in std::fs::read_dir(repo().join("tests/course/fixtures/sum")).expect("cases") {
            let entry = entry.expect("a case file");
            std::fs::copy(entry.path(), fixtures.join(entry.file_name())).expect("copy case");
        }
    }
    std::fs::write(dir.path().join("info.toml"), info).expect("write info.toml");
    dir
}

/// A class in `root/submissions/`: a subdirectory per student, holding
/// `tests/programs/<program>.c` as its `sum.c`.
pub fn class(root: &Path, students: &[(&str, &str)]) {
    for (student, program) in students {
        let dir = root.join("submissions").join(student);
        std::fs::create_dir_all(&dir).expect("a student's folder");
        std::fs::copy(
            repo().join(format!("tests/programs/{program}.c")),
            dir.join("sum.c"),
        )
        .expect("copy program");
    }
}

pub fn put_program(course: &Path, program: &str) {
    let source = repo().join("tests/programs").join(format!("{program}.c"));
    std::fs::copy(&source, course.join("exercises/sum.c")).expect("copy program");
}

/// `clings` run in `dir` as an unprivileged user (nobody, 65534) when the test runs as
/// root, as on a student's laptop or a CI runner's user; `dir` is given to that user.
/// Without `setpriv`, `None` (see [`require`]).
pub fn clings_unprivileged(dir: &Path) -> Option<std::process::Command> {
    const NOBODY: u32 = 65534;
    if !nix::unistd::geteuid().is_root() {
        return Some(clings_process(dir));
    }
    clings_as_user(dir, NOBODY)
}

/// `clings` run in `dir` as user and group `uid` (the test runs as root); `dir` is given
/// to that user. Without `setpriv`, `None` (see [`require`]).
pub fn clings_as_user(dir: &Path, uid: u32) -> Option<std::process::Command> {
    let mut command = as_user(uid)?;
    let (owner, group) = (
        Some(nix::unistd::Uid::from_raw(uid)),
        Some(nix::unistd::Gid::from_raw(uid)),
    );
    for entry in WalkDir::new(dir) {
        nix::unistd::chown(entry.expect("walk").path(), owner, group).expect("chown");
    }
    command
        .arg(clings_process(dir).get_program())
        .current_dir(dir)
        .env("LANG", "C")
        .env("HOME", dir)
        .env("XDG_CACHE_HOME", dir.join(".clings/user-cache"))
        .env_remove("CC");
    Some(command)
}

/// `setpriv` set to run what follows as user and group `uid`, without other groups; `None`
/// without `setpriv` (see [`require`]).
pub fn as_user(uid: u32) -> Option<std::process::Command> {
    as_user_and_group(uid, uid)
}

/// `setpriv` set to run what follows as user `uid` and group `gid`, without other groups;
/// `None` without `setpriv` (see [`require`]).
pub fn as_user_and_group(uid: u32, gid: u32) -> Option<std::process::Command> {
    let setpriv = find_on_path("setpriv");
    if !require(
        setpriv.is_some(),
        "setpriv (util-linux) is not installed: cannot run clings as a normal user",
    ) {
        return None;
    }
    let mut command = std::process::Command::new(setpriv.expect("found above"));
    command.args([
        format!("--reuid={uid}"),
        format!("--regid={gid}"),
        "--clear-groups".into(),
        "--".into(),
    ]);
    Some(command)
}

/// The isolation a test has clings run its programs in, and requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// bubblewrap's namespaces (`--require-isolation`, `CLINGS_ISOLATION=bubblewrap`).
    Bubblewrap,
    /// Root in a container where namespaces are refused (see [`clings_in_container`]),
    /// `--require-isolation`: clings must choose the container tier by itself.
    ContainerLike,
    /// The container tier, asked for (`CLINGS_ISOLATION=container`), as any user.
    Container,
    /// Limits only (`CLINGS_ISOLATION=none`).
    None,
}

impl Tier {
    /// `clings` in `dir` so isolated, as root (the test's user); `None` where the test
    /// cannot set that up (see [`require`]).
    pub fn clings(self, dir: &Path) -> Option<std::process::Command> {
        let mut command = match self {
            Tier::ContainerLike => clings_in_container(dir)?,
            _ => clings_process(dir),
        };
        self.ask(&mut command);
        Some(command)
    }

    /// `clings` in `dir` so isolated, as root or as a normal user (nobody, given `dir`: see
    /// [`clings_unprivileged`]), whose container tier is asked for.
    pub fn as_user(self, dir: &Path, unprivileged: bool) -> Option<std::process::Command> {
        if !unprivileged {
            return self.clings(dir);
        }
        let mut command = clings_unprivileged(dir)?;
        self.ask(&mut command);
        Some(command)
    }

    /// Has `command`, a clings, ask for this tier and require it.
    pub fn ask(self, command: &mut std::process::Command) {
        match self {
            Tier::Bubblewrap => command
                .env("CLINGS_ISOLATION", "bubblewrap")
                .arg("--require-isolation"),
            Tier::ContainerLike => command.arg("--require-isolation"),
            Tier::Container => command
                .env("CLINGS_ISOLATION", "container")
                .arg("--require-isolation"),
            Tier::None => command.env("CLINGS_ISOLATION", "none"),
        };
    }

    /// Checks that clings said it runs in this tier (on `stderr`), and nothing weaker.
    pub fn check_said(self, stderr: &str) {
        let container = stderr.contains("isolated by the container tier");
        let unisolated = stderr.contains("without isolation");
        let said = match self {
            Tier::Bubblewrap => !container && !unisolated,
            Tier::ContainerLike | Tier::Container => container && !unisolated,
            Tier::None => unisolated,
        };
        assert!(said, "{self:?} not said: {stderr}");
    }
}

/// `clings` run in `dir` as root in something like a Docker container: in a mount
/// namespace of the test's own where the cgroup file system is out of reach, and without
/// `CAP_SYS_ADMIN`, so that no namespace can be made and bubblewrap cannot start (as in
/// Gradescope's, GitLab's and Kubernetes' containers). `None` where the test is not root
/// or lacks `unshare` or `setpriv` (see [`require`]).
pub fn clings_in_container(dir: &Path) -> Option<std::process::Command> {
    in_container(&clings_process(dir))
}

/// `command` run as in a container (see [`clings_in_container`]): its program, arguments,
/// environment and working directory.
pub fn in_container(command: &std::process::Command) -> Option<std::process::Command> {
    let tools = find_on_path("unshare").is_some() && find_on_path("setpriv").is_some();
    let root = nix::unistd::geteuid().is_root();
    if !require(
        root && tools,
        "a container-like run needs root, unshare and setpriv",
    ) {
        return None;
    }
    let mut wrapped = std::process::Command::new("unshare");
    wrapped
        .args(["--mount", "--propagation", "private", "--", "sh", "-c"])
        .arg(
            "mount -t tmpfs -o ro,size=4k tmpfs /sys/fs/cgroup && \
         exec setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- \"$@\"",
        );
    wrapped
        .arg("container")
        .arg(command.get_program())
        .args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        wrapped.current_dir(dir);
    }
    for (name, value) in command.get_envs() {
        match value {
            Some(value) => wrapped.env(name, value),
            None => wrapped.env_remove(name),
        };
    }
    Some(wrapped)
}

/// The mark a marking compiler wrapper left in the diagnostics of the build that `output`
/// (a `clings test` that must pass) graded: the `build <mark>` line.
pub fn passing_build_mark(output: &std::process::Output) -> String {
    let stdout = stdout_of(output);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        stderr_of(output)
    );
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("build "))
        .unwrap_or_else(|| panic!("no build mark: {stdout}"))
        .to_string()
}

/// `clings` run in `dir`, in English, without colour, with the compiler from the machine.
pub fn clings(dir: &Path) -> Command {
    Command::from_std(clings_process(dir))
}

/// The same as a plain process, for tests that signal it or run several at once.
pub fn clings_process(dir: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("clings"));
    command
        .current_dir(dir)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("CC")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        // What clings keeps for the whole machine stays with the test.
        .env("XDG_CACHE_HOME", dir.join(".clings/user-cache"));
    command
}

/// `clings battle` in `course`, which must exit 0; its stdout.
pub fn battle(course: &Path, args: &[&str]) -> String {
    let output = clings(course).arg("battle").args(args).output().unwrap();
    let said = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{said}\n{}",
        stderr_of(&output)
    );
    said
}

/// The names of a `tournament.json`'s players, in its order.
pub fn tournament_players(path: &Path) -> Vec<String> {
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    document["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|player| player["name"].as_str().unwrap().to_string())
        .collect()
}

pub fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts that clings stopped with a grader or course error (exit 2) whose message on
/// stderr holds `words`.
pub fn assert_error(output: &std::process::Output, words: &str) {
    let stderr = stderr_of(output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(words), "{words:?} not in: {stderr}");
}

/// Students' folder names that a spreadsheet would run as formulas (or that try to start
/// a cell of their own with one), for the CSV files clings writes.
pub const FORMULA_NAMES: [&str; 8] = [
    "=2+3",
    "+1-1+cmd|' -c calc'!A0",
    "-2+3",
    "@SUM(A1)",
    "\t=1+1",
    "\r=1+1",
    "=HYPERLINK(\"evil.example\",\"x\")",
    "\"=HYPERLINK(\"\"evil.example\"\")\"",
];

/// The cells of the CSV file at `path`, read by a CSV reader (quotes and all), header too.
pub fn csv_cells(path: &Path) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .expect("a CSV file")
        .records()
        .map(|record| {
            record
                .expect("a CSV record")
                .iter()
                .map(String::from)
                .collect()
        })
        .collect()
}

/// What a cell starts with when a spreadsheet takes it for a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Asserts that no cell of `cells` starts as a spreadsheet formula does (a number, `-25`,
/// is a number).
pub fn assert_no_formula(cells: &[Vec<String>]) {
    for cell in cells
        .iter()
        .flatten()
        .filter(|cell| cell.parse::<f64>().is_err())
    {
        assert!(
            !cell.starts_with(FORMULA_STARTS),
            "a formula: {cell:?} in {cells:?}"
        );
    }
}

/// The cell a spreadsheet shows for the folder name `name`: after a `'` (the sign of text)
/// if it starts as a formula does.
pub fn name_as_text(name: &str) -> String {
    match name.starts_with(FORMULA_STARTS) {
        true => format!("'{name}"),
        false => name.to_string(),
    }
}

/// `prefix` and 16 random lowercase letters: a marker that no file or report holds by
/// chance, with no digit in it (nor in its bytes in hex, pairs from 61 to 7a) that a
/// test looking for a number could take for one.
pub fn marker(prefix: &str) -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut bytes))
        .expect("random bytes");
    let letters: String = bytes
        .iter()
        .map(|byte| char::from(b'a' + byte % 26))
        .collect();
    format!("{prefix}{letters}")
}

/// Writes an executable shell script (a compiler wrapper, say) at `path`.
pub fn write_script(path: &Path, script: &str) {
    std::fs::write(path, script).expect("write script");
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(path, executable).expect("make it executable");
}

/// `clings test --format json` on `dir`, parsed, with the exit code.
pub fn json_results(dir: &Path, names: &[&str]) -> (serde_json::Value, Option<i32>) {
    let output = clings(dir)
        .args(["test", "--format", "json"])
        .args(names)
        .output()
        .expect("run clings");
    let document = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "not JSON ({err}): {}\nstderr: {}",
            stdout_of(&output),
            stderr_of(&output)
        )
    });
    (document, output.status.code())
}

/// The verdicts of an exercise's cases, in case order.
pub fn verdicts(document: &serde_json::Value, exercise: usize) -> Vec<String> {
    document["exercises"][exercise]["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| case["verdict"].as_str().expect("verdict").to_string())
        .collect()
}

/// Every file of the course but the build cache and the progress, with its content.
pub fn snapshot(course: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    WalkDir::new(course)
        .into_iter()
        .filter_entry(|entry| entry.file_name() != ".clings")
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file() && entry.file_name() != ".clings-state.json")
        .map(|entry| {
            (
                entry.path().to_path_buf(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

/// The user ids that the clings process `clings_pid` gives its runs when it is root: a
/// block chosen by its pid (see src/sandbox/user.rs).
/// The user ids the clings process `clings_pid` gives its runs, as `src/sandbox/user.rs`
/// chooses them: a block of 64 from its pid namespace, pid and start time. Taken from
/// /proc before it is reaped, so a test that spawns a clings itself calls
/// [`remember_run_users`] at once.
fn run_users_of(clings_pid: u32) -> std::ops::Range<u32> {
    const BASE: u32 = 1_800_000_000;
    const SLOTS: u32 = 64;
    let first = BASE + remember_run_users(clings_pid) * SLOTS;
    first..first + SLOTS
}

/// Blocks of run users of the clings processes this test binary started.
static RUN_USER_BLOCKS: std::sync::Mutex<BTreeMap<u32, u32>> =
    std::sync::Mutex::new(BTreeMap::new());

/// Notes, while the clings process `pid` lives, the block of its runs' user ids (see
/// [`run_users_of`]); the block.
pub fn remember_run_users(pid: u32) -> u32 {
    use sha2::Digest;
    let mut blocks = RUN_USER_BLOCKS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(block) = blocks.get(&pid) {
        return *block;
    }
    // The test's clings run in its own pid namespace; an ended one (not yet waited for)
    // still has its stat, not its namespaces.
    let namespace = std::fs::read_link("/proc/self/ns/pid").expect("the pid namespace");
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_else(|err| {
        panic!("clings {pid} was reaped ({err}): remember its run users first")
    });
    let start: u64 = stat
        .rsplit_once(") ")
        .and_then(|(_, rest)| rest.split(' ').nth(19)?.parse().ok())
        .expect("its start time");
    // `util::digest::of`: SHA-256 of the length-prefixed parts, its first 16 bytes in hex.
    let mut hasher = sha2::Sha256::new();
    let namespace = namespace.to_string_lossy().into_owned();
    for part in [
        namespace.as_bytes(),
        &pid.to_le_bytes(),
        &start.to_le_bytes(),
    ] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    let digest = hasher.finalize();
    let head = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    let block = (head % u64::from((i32::MAX as u32 - 1_800_000_000) / 64)) as u32;
    blocks.insert(pid, block);
    block
}

/// `command` (a clings) run to its end, with its process id, for [`leftover_processes`].
pub fn output_with_pid(command: &mut std::process::Command) -> (std::process::Output, u32) {
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start clings");
    let pid = child.id();
    remember_run_users(pid);
    (child.wait_with_output().expect("wait for clings"), pid)
}

/// A process as `/proc/PID/stat` shows it.
#[derive(Debug)]
pub struct Process {
    pub pid: u32,
    pub parent: u32,
    /// `Z`: ended, not reaped yet.
    pub state: String,
    /// The command's name (at most 15 bytes).
    pub command: String,
}

/// Every process on the machine now, zombies included: for tests that look among them for
/// their own clings' children.
pub fn processes() -> Vec<Process> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_string_lossy().parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // "pid (command) state ppid ...": the command may hold ") ".
            let (command, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            let mut fields = rest.split(' ');
            Some(Process {
                pid,
                state: fields.next()?.to_string(),
                parent: fields.next()?.parse().ok()?,
                command: command.to_string(),
            })
        })
        .collect()
}

/// Live (not zombie) processes that the clings process `clings_pid` started for its runs,
/// and no others: those running as one of its runs' users, or started from `dir`, a
/// directory of the test's own (a course, a scratch directory).
pub fn leftover_processes(clings_pid: u32, dir: &Path) -> Vec<String> {
    let dir = dir.to_string_lossy().into_owned();
    let users = run_users_of(clings_pid);
    let mut left = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let proc_dir = entry.path();
        let (Ok(status), Ok(cmdline)) = (
            std::fs::read_to_string(proc_dir.join("status")),
            std::fs::read(proc_dir.join("cmdline")),
        ) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        if field("State:").starts_with('Z') {
            continue;
        }
        let run_user = field("Uid:")
            .split_whitespace()
            .filter_map(|id| id.parse::<u32>().ok())
            .any(|id| users.contains(&id));
        let command = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if run_user || command.contains(&dir) {
            left.push(format!("{}: {command}", proc_dir.display()));
        }
    }
    left
}

/// Whether a test has what it needs to check anything: `available` says if it has it,
/// `reason` what it lacks and how to get it ("tmux is not installed (`sudo apt install
/// tmux`)"). Without it, under CI (`CI=true`, where `.ci/run` provides everything the
/// suite needs) the test fails with the reason: a test that passes by skipping proves
/// nothing. Elsewhere it is skipped with `skipped: <reason>`, written to the process'
/// stderr itself, past the test harness' capture (which would hide it, the test passing),
/// so `cargo test` shows it. The caller returns when this is `false`.
pub fn require(available: bool, reason: &str) -> bool {
    if available {
        return true;
    }
    let current = std::thread::current();
    let test = current.name().unwrap_or("a test");
    assert!(
        !in_ci(),
        "{reason}: CI must run {test} (.ci/run installs what the suite needs)"
    );
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped: {reason} ({test})");
    false
}

/// `name` from PATH, as a shell would find it.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// `tool` from PATH, or `None` after [`require`] said why (a failure under CI).
pub fn required_tool(tool: &str, install: &str) -> Option<PathBuf> {
    let path = find_on_path(tool);
    require(
        path.is_some(),
        &format!("{tool} is not installed ({install})"),
    )
    .then_some(path?)
}

/// Runs actionlint on `files`, from `dir` (which holds no actionlint configuration, so no
/// check is turned off), and returns whether it passed and what it said.
pub fn actionlint(actionlint: &Path, dir: &Path, files: &[PathBuf]) -> (bool, String) {
    let output = std::process::Command::new(actionlint)
        .args(["-oneline", "-no-color"])
        .args(files)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
    (output.status.success(), said)
}

/// Whether the tests run in CI (`CI=true`), where `.ci/run` has installed what they need.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| value == "true")
}

/// The shipped course's exercises, in order.
pub const COURSE_EXERCISES: [&str; 12] = [
    "print_board",
    "check_win",
    "gomoku",
    "show_board",
    "move_errors",
    "highlight",
    "replay",
    "ai",
    "undo",
    "save_load",
    "renju",
    "search",
];

/// Every file under `dir`, relative to it.
pub fn files_under(dir: &Path) -> std::collections::BTreeSet<PathBuf> {
    WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| entry.path().strip_prefix(dir).unwrap().to_owned())
        .collect()
}

/// How many cases the course as shipped gives `exercise` (each worth a point: no case of
/// the course sets `points`).
pub fn shipped_cases(exercise: &str) -> usize {
    std::fs::read_dir(repo().join("fixtures").join(exercise))
        .expect("the exercise's fixtures")
        .filter(|entry| {
            let name = entry.as_ref().unwrap().file_name();
            name.to_string_lossy().ends_with(".out")
        })
        .count()
}

/// `(verdict, message)` of each case of the first exercise `command` grades (a `clings
/// test --format json`).
pub fn case_verdicts_and_messages(command: &mut Command) -> Vec<(String, String)> {
    let output = command.output().expect("run clings");
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("not JSON ({err}): {}", stderr_of(&output)));
    document["exercises"][0]["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| {
            let field = |key: &str| case[key].as_str().expect(key).to_string();
            (field("verdict"), field("message"))
        })
        .collect()
}

/// Whether `dev check`'s report says that the solution passed `case`.
pub fn solution_passed(said: &str, case: &str) -> bool {
    said.lines()
        .any(|line| line.contains("solution") && line.contains(case) && line.contains("passed"))
}

/// A small course in a fresh directory: `info` as its info.toml, and each program of
/// `tests/programs/<folder>/` (`(file stem, path in the course)`) copied in.
pub fn small_course(info: &str, folder: &str, programs: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("info.toml"), info).expect("write info.toml");
    let source = repo().join("tests/programs").join(folder);
    for (from, to) in programs {
        let target = dir.path().join(to);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("create folder");
        std::fs::copy(source.join(format!("{from}.c")), target).expect("copy program");
    }
    dir
}

/// Headless Chromium, if installed (`.ci/run` installs it); `what` names the page a test
/// would open, for the reason it is skipped (see [`require`]).
pub fn chromium(what: &str) -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| find_on_path(name));
    require(
        found.is_some(),
        &format!(
            "chromium is not installed (`sudo apt install chromium`): {what} is not opened in a browser"
        ),
    )
    .then(|| found.expect("found above"))
}

/// Chromium run headless on `page` with `args`, a profile of its own in `profile`.
pub fn open_in_chromium(
    chromium: &Path,
    profile: &Path,
    page: &Path,
    args: &[&str],
) -> std::process::Output {
    open_url_in_chromium(
        chromium,
        profile,
        &format!("file://{}", page.display()),
        args,
    )
}

/// The same on `url` (a page with a fragment, `file:///…/page.html#g1`).
pub fn open_url_in_chromium(
    chromium: &Path,
    profile: &Path,
    url: &str,
    args: &[&str],
) -> std::process::Output {
    std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .args(["--no-first-run", "--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium")
}

/// The lines of Chromium's log (`--enable-logging=stderr`) where a page wrote to the
/// console or threw.
pub fn console_messages(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|line| line.contains(":CONSOLE") || line.contains("Uncaught"))
        .collect()
}

/// A PNG's width and height, from its header.
pub fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[1..4], b"PNG", "not a PNG");
    (
        u32::from_be_bytes(png[16..20].try_into().expect("4 bytes")),
        u32::from_be_bytes(png[20..24].try_into().expect("4 bytes")),
    )
}

/// For each screenshot (a PNG file) and band of it (`top` to `bottom`, full width, in
/// pixels), the share of the band's pixels whose colour differs from its first pixel's:
/// 0 for a band drawn in one colour, blank. Read by Chromium itself, each screenshot drawn
/// on a canvas of a page the test writes in `dir` (the tests have no PNG decoder).
pub fn ink_in_bands(chromium: &Path, dir: &Path, shots: &[(PathBuf, u32, u32)]) -> Vec<f64> {
    let images: Vec<String> = shots
        .iter()
        .map(|(png, top, bottom)| {
            let base64 = std::process::Command::new("base64")
                .args(["-w", "0"])
                .arg(png)
                .output()
                .expect("run base64");
            assert!(base64.status.success(), "{}", stderr_of(&base64));
            format!(
                "<img data-band=\"{top} {bottom}\" src=\"data:image/png;base64,{}\">",
                stdout_of(&base64)
            )
        })
        .collect();
    let page = format!(
        "<!DOCTYPE html><body>{}<script>\
         window.addEventListener('load', function() {{\
           var shares = Array.prototype.map.call(document.querySelectorAll('img'), function(img) {{\
             var band = img.dataset.band.split(' ').map(Number);\
             var canvas = document.createElement('canvas');\
             canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;\
             var context = canvas.getContext('2d');\
             context.drawImage(img, 0, 0);\
             var data = context.getImageData(0, band[0], canvas.width, band[1] - band[0]).data;\
             var ink = 0;\
             for (var i = 0; i < data.length; i += 4) {{\
               if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) ink++;\
             }}\
             return ink / (data.length / 4);\
           }});\
           document.body.setAttribute('data-ink', shares.join(' '));\
         }});</script>",
        images.concat(),
    );
    let file = dir.join("ink.html");
    std::fs::write(&file, page).expect("write the page that reads the screenshots");
    let dom = open_in_chromium(chromium, &dir.join("ink-profile"), &file, &["--dump-dom"]);
    let text = stdout_of(&dom);
    let shares = text
        .split_once("data-ink=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .unwrap_or_else(|| panic!("the screenshots were not read: {}", stderr_of(&dom)))
        .0;
    let shares: Vec<f64> = shares
        .split(' ')
        .map(|share| share.parse().expect("a share"))
        .collect();
    assert_eq!(shares.len(), shots.len());
    shares
}

/// Markup that breaks out of an element's text and of a quoted attribute (either quote),
/// a script's end, a comment's start and an entity: what a text on a page must not be
/// read as.
pub const MARKUP: &str = "<img src=x onerror=alert(1)>\"><svg onload=alert(2)>'<b onclick=alert(3)>&amp;</pre></script><script>alert(4)</script><!--";

/// A page clings wrote, as a browser reads its markup: each element's name with its
/// attributes' names, how many comments, and the text, unescaped, of its text and its
/// attributes' values. Its script (one, the page's own: JavaScript, not markup) is apart.
#[derive(Debug)]
pub struct Markup {
    pub elements: Vec<(String, Vec<String>)>,
    pub comments: usize,
    pub text: String,
    pub script: String,
}

/// `page` read as [`Markup`]; it must hold one `<script>`.
pub fn markup(page: &str) -> Markup {
    use quick_xml::events::Event;
    assert_eq!(
        page.matches("<script").count(),
        1,
        "the page's own script only: {page}"
    );
    let (before, rest) = page.split_once("<script>").expect("the page's script");
    let (script, after) = rest.split_once("</script>").expect("its end");
    let html = format!("{before}{after}");
    let mut reader = quick_xml::Reader::from_str(&html);
    let config = reader.config_mut();
    (config.check_end_names, config.allow_unmatched_ends) = (false, true);
    let mut read = Markup {
        elements: Vec::new(),
        comments: 0,
        text: String::new(),
        script: script.to_string(),
    };
    let unescaped = |text: &str| -> String {
        quick_xml::escape::unescape(text)
            .unwrap_or_else(|err| panic!("{err}: {text}"))
            .into_owned()
    };
    loop {
        match reader
            .read_event()
            .unwrap_or_else(|err| panic!("not markup ({err}): {html}"))
        {
            Event::Start(element) | Event::Empty(element) => {
                let mut names = Vec::new();
                for attribute in element.html_attributes() {
                    let attribute = attribute.unwrap_or_else(|err| panic!("{err}: {element:?}"));
                    names.push(String::from_utf8_lossy(attribute.key.as_ref()).into_owned());
                    let value = String::from_utf8_lossy(&attribute.value).into_owned();
                    read.text.push_str(&unescaped(&value));
                    read.text.push('\n');
                }
                let name = String::from_utf8_lossy(element.name().as_ref()).into_owned();
                read.elements.push((name, names));
            }
            Event::Text(text) => read.text.push_str(&text.decode().expect("UTF-8")),
            Event::GeneralRef(reference) => {
                let name = reference.decode().expect("UTF-8");
                read.text.push_str(&unescaped(&format!("&{name};")));
            }
            Event::Comment(_) => read.comments += 1,
            Event::Eof => break,
            _ => {}
        }
    }
    read
}

impl Markup {
    /// Its elements, each with its attributes' names, in sorted order: what the page is
    /// made of, whatever order its rows come in.
    pub fn structure(&self) -> Vec<(String, Vec<String>)> {
        let mut elements = self.elements.clone();
        elements.sort();
        elements
    }
}

/// Gradescope's `results.json` in `text`, parsed, after asserting that it holds only what
/// Gradescope's specification lists, with the types and values it gives
/// (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>, "Output format"):
/// Gradescope publishes no schema nor a parser to check it with.
pub fn gradescope_results(text: &str) -> serde_json::Value {
    use serde_json::Value;
    const TOP: [&str; 11] = [
        "score",
        "execution_time",
        "output",
        "output_format",
        "test_output_format",
        "test_name_format",
        "visibility",
        "stdout_visibility",
        "extra_data",
        "tests",
        "leaderboard",
    ];
    const TEST: [&str; 11] = [
        "score",
        "max_score",
        "status",
        "name",
        "name_format",
        "number",
        "output",
        "output_format",
        "tags",
        "visibility",
        "extra_data",
    ];
    const VISIBILITIES: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];
    const FORMATS: [&str; 5] = ["text", "html", "simple_format", "md", "ansi"];
    let results: Value = serde_json::from_str(text)
        .unwrap_or_else(|err| panic!("results.json is not JSON ({err}): {text}"));
    let object = results.as_object().expect("results.json is an object");
    let check_fields = |object: &serde_json::Map<String, Value>, known: &[&str], what: &str| {
        for (key, value) in object {
            assert!(
                known.contains(&key.as_str()),
                "{what}: {key} is not in the spec"
            );
            match key.as_str() {
                "score" | "max_score" | "execution_time" => assert!(
                    value.as_f64().is_some_and(|number| number >= 0.0),
                    "{what}: {key} is not a number: {value}"
                ),
                "visibility" | "stdout_visibility" => assert!(
                    VISIBILITIES.contains(&value.as_str().unwrap_or("")),
                    "{what}: {key} = {value}"
                ),
                "output_format" | "test_output_format" | "test_name_format" | "name_format" => {
                    assert!(
                        FORMATS.contains(&value.as_str().unwrap_or("")),
                        "{what}: {key} = {value}"
                    )
                }
                "output" | "name" | "number" => {
                    let text = value.as_str().unwrap_or_else(|| panic!("{what}: {key}"));
                    assert!(!text.contains('\x1b'), "{what}: {key} holds ANSI: {text:?}");
                }
                "status" => assert!(
                    ["passed", "failed"].contains(&value.as_str().unwrap_or("")),
                    "{what}: status = {value}"
                ),
                "tags" => assert!(
                    value
                        .as_array()
                        .is_some_and(|tags| tags.iter().all(Value::is_string)),
                    "{what}: tags = {value}"
                ),
                "extra_data" => assert!(value.is_object(), "{what}: extra_data"),
                _ => {}
            }
        }
    };
    check_fields(object, &TOP, "results.json");
    let tests = results["tests"].as_array().expect("tests is a list");
    assert!(
        object.contains_key("score") || tests.iter().all(|test| test.get("score").is_some()),
        "a score, at the top or on every test"
    );
    for test in tests {
        let fields = test.as_object().expect("a test is an object");
        check_fields(fields, &TEST, "a test");
        if let (Some(score), Some(max)) = (test["score"].as_f64(), test["max_score"].as_f64()) {
            assert!(score <= max, "more than its max_score: {test}");
        }
    }
    results
}

/// A player for the referee's protocol that plays `moves` in order, whatever it is told,
/// and stops when they are used up or its input ends.
pub fn scripted_player<T: std::fmt::Display>(moves: &[(T, T)]) -> String {
    let cells: Vec<String> = moves.iter().map(|(r, c)| format!("{{{r}, {c}}}")).collect();
    format!(
        "#include <stdio.h>\n\
         static const int moves[][2] = {{ {} }};\n\
         int main(void)\n{{\n\
         \x20   char me, turn = 'X';\n\
         \x20   int r, c, next = 0, count = sizeof moves / sizeof moves[0];\n\
         \x20   if (scanf(\" %c\", &me) != 1)\n        return 0;\n\
         \x20   for (;;) {{\n\
         \x20       if (turn == me) {{\n\
         \x20           if (next == count)\n                return 0;\n\
         \x20           printf(\"%d %d\\n\", moves[next][0], moves[next][1]);\n\
         \x20           fflush(stdout);\n\
         \x20           next++;\n\
         \x20       }} else if (scanf(\"%d %d\", &r, &c) != 2) {{\n\
         \x20           return 0;\n\
         \x20       }}\n\
         \x20       turn = turn == 'X' ? 'O' : 'X';\n\
         \x20   }}\n}}\n",
        cells.join(", ")
    )
}
