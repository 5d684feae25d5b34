//! Isolation with bubblewrap (`bwrap`): the program runs in new mount, pid, network, IPC,
//! UTS and cgroup namespaces (and a new user namespace when clings is not root), where the
//! file system holds only the system's libraries and programs (read-only), a fresh /proc
//! and /dev, the program itself, and an empty, size-limited scratch directory, its only
//! writable place. Nothing of the course, its fixtures or the student's files is there.

use std::os::fd::RawFd;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::Folders;
use super::helper::{self, FileChannel, Orders, PROGRAM_DIR, PROGRAM_FILE, SERVE_FLAG};
use super::limits::Limits;
use super::system_dirs::{SYSTEM_DIRS, is_system_path};

/// Where things are inside the sandbox.
const HELPER: &str = "/clings-helper";
pub const PROGRAM: &str = "/program";
pub const SCRATCH: &str = helper::SCRATCH;
/// The most a program copied into a warm sandbox may take (a build of the lesson takes
/// well under 1 MiB; one with a huge initialised array, more).
const PROGRAM_DIR_BYTES: u64 = 256 << 20;

#[derive(Clone, Debug, PartialEq)]
pub struct Bubblewrap {
    bwrap: PathBuf,
    /// clings itself, run as the helper.
    helper: PathBuf,
    /// `--ro-bind`/`--symlink` arguments for [`SYSTEM_DIRS`] as they are on this machine.
    system: Vec<String>,
    /// Whether clings runs as root: bubblewrap then needs no user namespace, and the
    /// helper switches to the run's own user.
    root: bool,
}

/// What one run puts in its sandbox.
pub struct Run<'a> {
    pub program: Executable<'a>,
    pub args: &'a [String],
    /// A host directory mounted writable as the working directory; else an empty tmpfs.
    pub workdir: Option<&'a Path>,
    /// The program's whole environment, `NAME=value`.
    pub env: &'a [String],
    /// Where the helper writes its report.
    pub status_fd: RawFd,
    /// The run's file channel, and the files to collect through it.
    pub files: FileChannel,
    /// A battle player's turn channel (see [`Orders::turns`]).
    pub turns: FileChannel,
    pub collect: &'a [String],
    /// See [`Orders::memory_watch`].
    pub memory_watch: Option<u64>,
    /// The program's folders of the host, bound at their own paths, the one to read its
    /// working directory.
    pub folders: Option<Folders<'a>>,
}

pub enum Executable<'a> {
    /// A program's descriptor, copied into the sandbox at [`PROGRAM`].
    Copied(RawFd),
    /// An installed command, visible at its own path.
    InPlace(&'a Path),
    /// Each run's own, which the helper of a warm sandbox puts at [`PROGRAM`].
    PerRun,
}

impl Bubblewrap {
    /// Finds `bwrap` on PATH; whether it works here is found out by running it.
    pub fn find(root: bool) -> Result<Bubblewrap, String> {
        let bwrap = find_on_path("bwrap").ok_or_else(|| {
            "bubblewrap is not installed (`sudo apt install bubblewrap`)".to_string()
        })?;
        let helper = std::env::current_exe()
            .map_err(|err| format!("cannot find clings' own executable: {err}"))?;
        Ok(Bubblewrap {
            bwrap,
            helper,
            system: system_mounts(),
            root,
        })
    }

    /// Where to record that this bubblewrap works for this clings, this user, these
    /// namespaces and capabilities until the machine restarts (the kernel's boot id);
    /// `None` where that cannot be told.
    pub fn probe_record(&self, probe_dir: &Path) -> Option<PathBuf> {
        let identity = |path: &Path| {
            let meta = std::fs::metadata(path).ok()?;
            Some(format!(
                "{} {} {:?}",
                path.display(),
                meta.len(),
                meta.modified().ok()?
            ))
        };
        let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
        // Containers on one host share its boot id: the namespaces clings runs in and the
        // capabilities it has tell one container (or a `capsh --drop`) from another.
        let namespaces = ["mnt", "user", "pid"]
            .map(|ns| std::fs::read_link(format!("/proc/self/ns/{ns}")).ok())
            .map(|link| format!("{link:?}"))
            .join(" ");
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let capabilities: Vec<&str> = status
            .lines()
            .filter(|line| line.starts_with("CapEff:") || line.starts_with("CapBnd:"))
            .collect();
        let key = crate::util::digest::of(&[
            identity(&self.bwrap)?.as_bytes(),
            identity(&self.helper)?.as_bytes(),
            boot.trim().as_bytes(),
            nix::unistd::geteuid().as_raw().to_string().as_bytes(),
            namespaces.as_bytes(),
            capabilities.join(" ").as_bytes(),
        ]);
        Some(probe_dir.join(format!("isolation-{key}")))
    }

    /// RLIMIT_NPROC counts the processes and threads of one user (in one user namespace).
    /// As root the program has a user of its own; otherwise the sandbox's user namespace
    /// also holds the process that runs it (one thread, which waits for the program and
    /// times it): the helper of one run, or a warm sandbox's run's init, beside which the
    /// warm sandbox's helper waits.
    pub fn process_limit(&self, processes: u64, warm: bool) -> u64 {
        match (self.root, warm) {
            (true, _) => processes,
            (false, false) => processes + 1,
            (false, true) => processes + 2,
        }
    }

    /// `bwrap` with its arguments, starting the helper on one run of the program.
    pub fn command(&self, run: &Run, limits: &Limits, uid: Option<u32>) -> Command {
        let scratch = match run.workdir {
            Some(dir) => Scratch::Host(dir),
            None => Scratch::Fresh(limits.file_size_bytes),
        };
        let (mut command, program) = self.sandbox(&run.program, scratch, run.folders);
        let orders = Orders {
            rlimits: limits.rlimits(self.process_limit(limits.processes, false)),
            uid,
            wall_time: limits.wall_time,
            program: program.to_string_lossy().into_owned(),
            args: run.args.to_vec(),
            env: run.env.to_vec(),
            files: run.files,
            turns: run.turns,
            collect: run.collect.to_vec(),
            confine: None,
            memory_watch: run.memory_watch,
        };
        command.args(orders.to_args(run.status_fd));
        command
    }

    /// `bwrap` with its arguments, starting the helper of a warm sandbox that takes its
    /// runs on `socket`; each run's working directory holds `scratch_bytes`. bubblewrap's
    /// own working directory is only where the helper mounts each run's (see
    /// [`helper`]'s namespaces of a run).
    pub fn serving_command(&self, socket: RawFd, scratch_bytes: u64) -> Command {
        let (mut command, _) = self.sandbox(&Executable::PerRun, Scratch::Fresh(0), None);
        command
            .arg(SERVE_FLAG)
            .arg(socket.to_string())
            .arg(scratch_bytes.to_string());
        command
    }

    /// `bwrap` with the sandbox's arguments and the helper; the helper's own arguments
    /// come next. Also where the program is inside.
    fn sandbox(
        &self,
        executable: &Executable,
        scratch: Scratch,
        folders: Option<Folders>,
    ) -> (Command, PathBuf) {
        let mut command = Command::new(&self.bwrap);
        // The cgroup namespace is not always available; the others are needed.
        // The helper is the sandbox's init (pid 1): the program cannot signal it, orphans
        // come to it, and bubblewrap reaps it before ending, so that bubblewrap's end means
        // the namespace is empty. With bubblewrap's own init, bubblewrap would end first
        // and leave that init to the machine's init to reap, in its own time.
        command.args([
            "--as-pid-1",
            "--die-with-parent",
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
        ]);
        // A warm sandbox's helper makes each run's pid and mount namespaces and mounts in
        // them (CAP_SYS_ADMIN): without a user namespace, in the machine's; with one, in
        // the sandbox's alone. The program is given no capability (see the helper).
        let warm = matches!(executable, Executable::PerRun);
        if self.root {
            // Without a user namespace bubblewrap would keep root's capabilities for the
            // helper; it needs only these: to switch to the run's user, to stop the
            // program's processes, to give the files a case provides to the run's user,
            // and to empty a warm sandbox's program directory (however the run's
            // permissions were). The program loses them with root's user id.
            command.args(["--cap-drop", "ALL"]);
            for capability in [
                "CAP_SETUID",
                "CAP_SETGID",
                "CAP_KILL",
                "CAP_CHOWN",
                "CAP_DAC_OVERRIDE",
                "CAP_FOWNER",
            ] {
                command.args(["--cap-add", capability]);
            }
        } else {
            command.arg("--unshare-user");
        }
        if warm {
            command.args(["--cap-add", "CAP_SYS_ADMIN"]);
        }
        command.args(&self.system);
        command
            .args(["--proc", "/proc", "--dev", "/dev", "--ro-bind"])
            .arg(&self.helper)
            .arg(HELPER);
        let program = match executable {
            Executable::Copied(fd) => {
                command
                    .args(["--perms", "0555", "--ro-bind-data"])
                    .arg(fd.to_string())
                    .arg(PROGRAM);
                PathBuf::from(PROGRAM)
            }
            Executable::PerRun => {
                command
                    .args(["--perms", "0755", "--size", &PROGRAM_DIR_BYTES.to_string()])
                    .args(["--tmpfs", PROGRAM_DIR, "--symlink", PROGRAM_FILE, PROGRAM]);
                PathBuf::from(PROGRAM)
            }
            Executable::InPlace(path) => {
                let in_folder = folders.is_some_and(|folders| path.starts_with(folders.read));
                if !is_system_path(path) && !in_folder {
                    bind_in_place(&mut command, "--ro-bind", path);
                }
                path.to_path_buf()
            }
        };
        match scratch {
            Scratch::Host(dir) => {
                command.arg("--bind").arg(dir).arg(SCRATCH);
            }
            Scratch::Fresh(bytes) => {
                // Writable by the run's user, whoever made the mount.
                command
                    .args(["--perms", "0777", "--size", &bytes.max(4096).to_string()])
                    .args(["--tmpfs", SCRATCH]);
            }
        }
        let workdir = match folders {
            Some(folders) => {
                bind_in_place(&mut command, "--ro-bind", folders.read);
                bind_in_place(&mut command, "--bind", folders.keep);
                folders.read
            }
            None => Path::new(SCRATCH),
        };
        command
            // The root holds only mount points; /dev is a small tmpfs of device nodes.
            // Neither may become a place to write.
            .args(["--remount-ro", "/dev", "--remount-ro", "/"])
            .arg("--chdir")
            .arg(workdir)
            .arg(HELPER);
        (command, program)
    }
}

/// Shows the host's `path` in the sandbox at the same path (`bind`: `--ro-bind` or
/// `--bind`). bubblewrap makes missing parents private to root; the run's user must get
/// through them.
fn bind_in_place(command: &mut Command, bind: &str, path: &Path) {
    let mut parents: Vec<&Path> = path.ancestors().skip(1).collect();
    parents.pop(); // the root
    for parent in parents.into_iter().rev() {
        command.args(["--perms", "0755", "--dir"]).arg(parent);
    }
    command.arg(bind).arg(path).arg(path);
}

/// The run's working directory, its only writable place.
enum Scratch<'a> {
    /// A host directory, mounted writable.
    Host(&'a Path),
    /// An empty tmpfs that holds this many bytes.
    Fresh(u64),
}

fn system_mounts() -> Vec<String> {
    let mut args = Vec::new();
    // bubblewrap makes missing parents private to root; the run's user must get through
    // them (/usr, /etc).
    let mut parents: Vec<&str> = SYSTEM_DIRS
        .iter()
        .flat_map(|dir| Path::new(dir).ancestors().skip(1))
        .filter_map(Path::to_str)
        .filter(|parent| *parent != "/")
        .collect();
    // Outer folders first.
    parents.sort_by_key(|parent| (parent.matches('/').count(), *parent));
    parents.dedup();
    for parent in parents {
        args.extend(["--perms", "0755", "--dir", parent].map(String::from));
    }
    for dir in SYSTEM_DIRS {
        let path = Path::new(dir);
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        if meta.file_type().is_symlink() {
            if let Ok(target) = std::fs::read_link(path) {
                args.extend([
                    "--symlink".to_string(),
                    target.to_string_lossy().into_owned(),
                    dir.to_string(),
                ]);
            }
        } else if meta.is_dir() {
            args.extend(["--ro-bind".to_string(), dir.to_string(), dir.to_string()]);
        }
    }
    args
}

/// `name` as a shell finds it on `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}
