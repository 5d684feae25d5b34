//! Running an untrusted student program on one input, contained: its own session and
//! process group, resource limits, a clean environment, a scratch working directory, a
//! wall-time limit and a cap on what it may print; isolated from the rest of the machine
//! with bubblewrap where that works. Every process the program started is gone, checked,
//! before a run returns.

mod capture;
mod helper;
mod isolation;
mod limits;
mod live;
mod process;
mod procs;
mod user;

use std::fs::File;
use std::io::{Read, Seek};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::unistd::Pid;

pub use helper::main_if_helper;
pub use limits::{Limits, Memory, MemoryEnforcement};
pub use live::{Interrupted, Session, interrupt};

use crate::i18n::Lang;
use capture::Capture;
use isolation::Bubblewrap;
use live::Live;
use process::Group;
use user::RunUser;

/// How long the output readers may go on after the program ended: only a process that
/// escaped the run can still hold the pipes open.
const DRAIN_GRACE: Duration = Duration::from_millis(200);
/// With isolation the helper enforces the wall time; clings stops the whole sandbox this
/// much later if the helper has not.
const HELPER_GRACE: Duration = Duration::from_millis(500);
/// How long the processes of a run may take to disappear once killed.
const REAP_PATIENCE: Duration = Duration::from_secs(2);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
}

/// Why the program did not end by itself, or what limit ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// clings stopped it at the wall-time limit.
    WallTime,
    /// The kernel stopped it at the CPU-time limit (SIGXCPU, or SIGKILL at the hard limit).
    CpuTime,
    /// It ran out of memory at the limit (see [`Limits::near_memory_limit`]).
    Memory,
    /// clings stopped it for printing too much.
    OutputLimit,
}

#[derive(Debug)]
pub struct Outcome {
    pub termination: Termination,
    pub stopped: Option<Stop>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
    /// CPU time used; unknown when the program was killed with its sandbox.
    pub cpu_time: Option<Duration>,
    /// Peak resident memory; unknown when the program was killed with its sandbox.
    pub peak_memory_bytes: Option<u64>,
    /// Whether the program had consumed all of its stdin: a program stopped in that state
    /// is almost always looping on a `scanf` that returns EOF.
    pub input_exhausted: bool,
}

/// How runs are contained on this machine, found out once per clings process.
pub struct Sandbox {
    isolation: Option<Bubblewrap>,
    root: bool,
}

impl Sandbox {
    /// Isolation if it works here, else limits only with a warning (in `lang`), or an error
    /// when `require_isolation`. `CLINGS_ISOLATION=none` asks for limits only.
    pub fn detect(require_isolation: bool, lang: Lang) -> Result<(Sandbox, Option<String>)> {
        let root = user::is_root();
        let reason = match Sandbox::try_isolation(root) {
            Ok(sandbox) => return Ok((sandbox, None)),
            Err(reason) => reason,
        };
        if require_isolation {
            bail!("--require-isolation: student programs cannot be isolated here: {reason}");
        }
        let warning = lang.pick(
            format!(
                "programs run without isolation ({reason}): they are held by resource limits \
                 but can read files outside their directory; bubblewrap isolates them"
            ),
            format!(
                "程序在没有隔离的情况下运行（{reason}）：资源限制仍然有效，\
                 但程序可以读取其目录之外的文件；安装 bubblewrap 即可隔离"
            ),
        );
        Ok((
            Sandbox {
                isolation: None,
                root,
            },
            Some(warning),
        ))
    }

    fn try_isolation(root: bool) -> Result<Sandbox, String> {
        if !cfg!(target_os = "linux") {
            return Err("namespaces exist only on Linux".into());
        }
        if std::env::var("CLINGS_ISOLATION").is_ok_and(|value| value == "none") {
            return Err("CLINGS_ISOLATION=none".into());
        }
        let sandbox = Sandbox {
            isolation: Some(Bubblewrap::find(root)?),
            root,
        };
        // Whether namespaces are allowed (containers often forbid them) shows only by
        // trying: a real run of a program that does nothing.
        let limits = Limits {
            wall_time: Duration::from_secs(10),
            cpu_time: Duration::from_secs(10),
            memory: Memory {
                bytes: 256 << 20,
                enforcement: MemoryEnforcement::AddressSpace,
            },
            processes: 4,
            file_size_bytes: 4096,
            open_files: 64,
            output_bytes: 4096,
        };
        match sandbox.run(Path::new("/bin/true"), None, limits, &[]) {
            Ok(outcome) if outcome.termination == Termination::Exited(0) => Ok(sandbox),
            Ok(outcome) => Err(format!(
                "bubblewrap does not work here: {}",
                String::from_utf8_lossy(&outcome.stderr).trim()
            )),
            Err(err) => Err(format!("{err:#}")),
        }
    }

    /// Runs `program` with `input` on stdin (empty when `None`).
    pub fn run(
        &self,
        program: &Path,
        input: Option<&Path>,
        limits: Limits,
        env: &[(String, String)],
    ) -> Result<Outcome> {
        live::check()?;
        let user = self.root.then(RunUser::acquire);
        let uid = user.as_ref().map(RunUser::uid);
        // The child's stdin shares this file's offset, which tells afterwards how far it read.
        let input_file = input.map(open_input).transpose()?;
        let stdin = match &input_file {
            Some(file) => Stdio::from(file.try_clone().context("cannot pass the input file")?),
            None => Stdio::null(),
        };
        let mut launch = match &self.isolation {
            Some(bwrap) => Launch::isolated(bwrap, program, &limits, uid)?,
            None => Launch::direct(program, &limits, uid)?,
        };
        launch
            .command
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .envs(limits.program_env(env))
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());

        let started = Instant::now();
        let mut child = spawn(&mut launch.command)
            .with_context(|| format!("cannot start {}", program.display()))?;
        // Only the child may hold the write ends now, so reading them ends with the run.
        launch.inherited.clear();
        let group = Arc::new(Group::new(Pid::from_raw(child.id() as i32)));
        let live = Live::register(Arc::clone(&group));
        let flooded = Arc::new(AtomicBool::new(false));
        let (drained_tx, drained_rx) = mpsc::channel();
        let stdout = Capture::start(
            child.stdout.take(),
            limits.output_bytes,
            &group,
            &flooded,
            &drained_tx,
        );
        let stderr = Capture::start(
            child.stderr.take(),
            limits.output_bytes,
            &group,
            &flooded,
            &drained_tx,
        );
        drop(drained_tx);

        let wall_limit = match &self.isolation {
            Some(_) => limits.wall_time + HELPER_GRACE,
            None => limits.wall_time,
        };
        let (exit, timed_out) = group
            .wait(Some(wall_limit))
            .context("cannot wait for the program")?;
        let elapsed = started.elapsed();
        drop(live);
        let drain_deadline = Instant::now() + DRAIN_GRACE;
        for _ in 0..2 {
            let left = drain_deadline.saturating_duration_since(Instant::now());
            if drained_rx.recv_timeout(left).is_err() {
                break;
            }
        }
        let stdout = stdout.take();
        let stderr = stderr.take();
        let flooded = flooded.load(Ordering::SeqCst);
        // Killed by clings rather than ended by itself: flood, timeout or Ctrl-C.
        let killed = flooded || timed_out || live::check().is_err();
        launch.verify_gone(&group, uid)?;
        live::check()?;

        let mut outcome = Outcome {
            termination: exit.termination,
            stopped: None,
            stdout,
            stderr,
            elapsed,
            cpu_time: Some(exit.cpu_time),
            peak_memory_bytes: Some(exit.peak_memory_bytes),
            input_exhausted: match input_file {
                Some(mut file) => {
                    let length = file.metadata().map(|meta| meta.len()).unwrap_or(0);
                    file.stream_position().is_ok_and(|read| read >= length)
                }
                None => true,
            },
        };
        let mut helper_timed_out = false;
        if self.isolation.is_some() {
            // What bubblewrap's exit status says is only what the helper reported.
            let report = helper::Report::parse(&launch.read_status());
            if let Some(errno) = report.exec_error {
                bail!(
                    "cannot start {} in the sandbox: {}",
                    program.display(),
                    std::io::Error::from_raw_os_error(errno)
                );
            }
            match report.exit {
                Some(exit) => {
                    outcome.termination = exit.termination;
                    outcome.cpu_time = Some(exit.cpu_time);
                    outcome.peak_memory_bytes = Some(exit.peak_memory_bytes);
                    outcome.elapsed = exit.elapsed;
                    helper_timed_out = exit.wall_timeout;
                }
                None if killed => {
                    outcome.cpu_time = None;
                    outcome.peak_memory_bytes = None;
                }
                None => bail!(
                    "the sandbox did not run {}: {}",
                    program.display(),
                    String::from_utf8_lossy(&outcome.stderr).trim()
                ),
            }
        }
        outcome.stopped = if flooded {
            Some(Stop::OutputLimit)
        } else if timed_out || helper_timed_out {
            Some(Stop::WallTime)
        } else if cpu_limit_hit(&outcome, &limits) {
            Some(Stop::CpuTime)
        } else if outcome.termination != Termination::Exited(0)
            && outcome
                .peak_memory_bytes
                .is_some_and(|peak| limits.near_memory_limit(peak))
        {
            Some(Stop::Memory)
        } else {
            None
        };
        drop(user);
        Ok(outcome)
    }
}

/// Starts the child. Without isolation, root runs a copy of the program that it has just
/// written: a fork by another thread meanwhile holds the written descriptor until that
/// child execs, and Linux refuses to run a file open for writing (ETXTBSY) until then.
fn spawn(command: &mut Command) -> std::io::Result<std::process::Child> {
    for _ in 0..100 {
        match command.spawn() {
            Err(err) if err.raw_os_error() == Some(libc::ETXTBSY) => {
                std::thread::sleep(Duration::from_millis(1));
            }
            started => return started,
        }
    }
    command.spawn()
}

/// The case's input, which must be a file: a directory opens, but reading fails.
fn open_input(path: &Path) -> Result<File> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    if !meta.is_file() {
        bail!("cannot read {}: not a regular file", path.display());
    }
    Ok(file)
}

/// SIGXCPU at the soft limit, or SIGKILL at the hard one for a program that ignored it.
fn cpu_limit_hit(outcome: &Outcome, limits: &Limits) -> bool {
    match outcome.termination {
        Termination::Signaled(libc::SIGXCPU) => true,
        Termination::Signaled(libc::SIGKILL) => outcome
            .cpu_time
            .is_some_and(|cpu| cpu.as_secs() > limits.cpu_seconds()),
        _ => false,
    }
}

/// One run's command and what goes with it until the run is over.
struct Launch {
    command: Command,
    /// Descriptors the child inherits; closed in clings once it has started.
    inherited: Vec<OwnedFd>,
    /// The read end of the helper's report.
    status: Option<File>,
    /// The working directory of a run without isolation.
    _scratch: Option<tempfile::TempDir>,
    isolated: bool,
}

impl Launch {
    fn isolated(
        bwrap: &Bubblewrap,
        program: &Path,
        limits: &Limits,
        uid: Option<u32>,
    ) -> Result<Launch> {
        let program_file =
            File::open(program).with_context(|| format!("cannot read {}", program.display()))?;
        let (status_read, status_write) = pipe()?;
        let fds = isolation::Descriptors {
            program: program_file.as_raw_fd(),
            status: status_write.as_raw_fd(),
        };
        let mut command = bwrap.command(limits, uid, &fds);
        let passed = [fds.program, fds.status];
        // SAFETY: setsid and fcntl are async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                nix::unistd::setsid()?;
                for fd in passed {
                    // Clears close-on-exec on a descriptor of this (child) process.
                    if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        Ok(Launch {
            command,
            inherited: vec![program_file.into(), status_write],
            status: Some(status_read.into()),
            _scratch: None,
            isolated: true,
        })
    }

    fn direct(program: &Path, limits: &Limits, uid: Option<u32>) -> Result<Launch> {
        let scratch = tempfile::Builder::new()
            .prefix("clings-run-")
            .tempdir()
            .context("cannot create a scratch directory for the program")?;
        let processes = match uid {
            Some(_) => limits.processes,
            // RLIMIT_NPROC counts every process of the user, so the program gets that
            // many more than the user has now.
            None => user::own_process_count() + limits.processes,
        };
        let rlimits = limits.rlimits(processes);
        let mut command = match uid {
            Some(uid) => {
                nix::unistd::chown(
                    scratch.path(),
                    Some(nix::unistd::Uid::from_raw(uid)),
                    Some(nix::unistd::Gid::from_raw(uid)),
                )
                .context("cannot give the scratch directory to the program's user")?;
                // The build cache may be out of the run's user's reach (a private course
                // directory): it gets its own copy, which it may run but not change.
                let copy = scratch.path().join(".program");
                std::fs::copy(program, &copy)
                    .and_then(|_| {
                        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o555))
                    })
                    .with_context(|| format!("cannot copy {} to run it", program.display()))?;
                let mut command = Command::new(copy);
                // std also drops the supplementary groups when root changes user.
                command.uid(uid).gid(uid);
                command
            }
            None => Command::new(program),
        };
        command.current_dir(scratch.path());
        // SAFETY: setsid and setrlimit are async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                // A session of its own: no controlling terminal to read or write, and a
                // process group to kill whole.
                nix::unistd::setsid()?;
                rlimits.apply()
            });
        }
        Ok(Launch {
            command,
            inherited: Vec::new(),
            status: None,
            _scratch: Some(scratch),
            isolated: false,
        })
    }

    /// Checks that no process of the run is left, killing stragglers.
    ///
    /// The run's process group holds the program, or with isolation bubblewrap, the
    /// sandbox's init and the helper: none of them is alive only once the sandbox's init
    /// has ended, and the kernel lets init end only after every other process of its pid
    /// namespace. Without isolation, a process that left the group (setsid) is found by
    /// the run's user id when clings is root, and cannot be found otherwise (the warning
    /// about missing isolation says so).
    fn verify_gone(&self, group: &Group, uid: Option<u32>) -> Result<()> {
        let leader = group.leader();
        let mut gone = wait_until_gone(|| {
            nix::sys::signal::killpg(leader, None) == Err(nix::errno::Errno::ESRCH)
                || !procs::group_has_live_process(leader.as_raw())
        });
        if let (false, Some(uid)) = (self.isolated, uid) {
            gone &=
                user::sweep(uid, REAP_PATIENCE).context("cannot stop the program's processes")?;
        }
        if !gone {
            bail!(
                "processes started by the program were still running {} s after it ended",
                REAP_PATIENCE.as_secs()
            );
        }
        Ok(())
    }

    /// What the helper reported. A helper that was killed with its sandbox may have left
    /// nothing, and its descendants may have held the pipe open: take what is there.
    fn read_status(&mut self) -> String {
        let mut bytes = Vec::new();
        if let Some(file) = self.status.as_mut() {
            let _ = fcntl(file.as_fd(), FcntlArg::F_SETFL(OFlag::O_NONBLOCK));
            let _ = file.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Polls `gone` every millisecond for up to [`REAP_PATIENCE`].
fn wait_until_gone(mut gone: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + REAP_PATIENCE;
    loop {
        if gone() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    nix::unistd::pipe2(OFlag::O_CLOEXEC).context("cannot create a pipe")
}
