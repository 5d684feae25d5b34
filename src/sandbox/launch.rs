//! One run's command, with isolation or without, from its start to the check that nothing
//! of it is left.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::unistd::Pid;

use super::capture::Capture;
use super::isolation::{self, Bubblewrap};
use super::limits::Limits;
use super::live::Live;
use super::process::{Exit, Group};
use super::{procs, user};

/// How long the output readers may go on after the program ended: only a process that
/// escaped the run can still hold the pipes open.
const DRAIN_GRACE: Duration = Duration::from_millis(200);
/// How long the processes of a run may take to disappear once killed.
const REAP_PATIENCE: Duration = Duration::from_secs(2);

/// How a run's command ended, as clings saw it.
pub struct Ended {
    pub exit: Exit,
    pub elapsed: Duration,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// clings stopped it for printing too much.
    pub flooded: bool,
    /// clings stopped it at `wall_limit`.
    pub timed_out: bool,
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

/// One run's command and what goes with it until the run is over.
pub struct Launch {
    pub command: Command,
    /// Descriptors the child inherits; closed in clings once it has started.
    inherited: Vec<OwnedFd>,
    /// The read end of the helper's report.
    status: Option<File>,
    /// The working directory of a run without isolation.
    _scratch: Option<tempfile::TempDir>,
    isolated: bool,
}

impl Launch {
    pub fn isolated(
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

    pub fn direct(program: &Path, limits: &Limits, uid: Option<u32>) -> Result<Launch> {
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
        #[cfg(target_os = "linux")]
        let clings = nix::unistd::getpid();
        // SAFETY: setsid, prctl, getppid and setrlimit are async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                // A session of its own: no controlling terminal to read or write, and a
                // process group to kill whole.
                nix::unistd::setsid()?;
                // A program must not outlive clings: when watch mode quits in the middle
                // of a run, a program stuck in a loop would otherwise run on, orphaned.
                // (bubblewrap's --die-with-parent does this for isolated runs.)
                #[cfg(target_os = "linux")]
                {
                    nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
                    if nix::unistd::getppid() != clings {
                        return Err(std::io::Error::other(
                            "clings ended before the program started",
                        ));
                    }
                }
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

    /// Starts the command, reads its output (stopping it past the cap), waits for it (at
    /// most `wall_limit`), and checks that nothing of it is left.
    pub fn supervise(
        &mut self,
        limits: &Limits,
        wall_limit: Duration,
        uid: Option<u32>,
    ) -> Result<Ended> {
        let started = Instant::now();
        let mut child = spawn(&mut self.command).context("cannot start it")?;
        // Only the child may hold the write ends now, so reading them ends with the run.
        self.inherited.clear();
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
        let (exit, timed_out) = group.wait(Some(wall_limit)).context("cannot wait for it")?;
        let elapsed = started.elapsed();
        drop(live);
        let drain_deadline = Instant::now() + DRAIN_GRACE;
        for _ in 0..2 {
            let left = drain_deadline.saturating_duration_since(Instant::now());
            if drained_rx.recv_timeout(left).is_err() {
                break;
            }
        }
        self.verify_gone(&group, uid)?;
        Ok(Ended {
            exit,
            elapsed,
            stdout: stdout.take(),
            stderr: stderr.take(),
            flooded: flooded.load(Ordering::SeqCst),
            timed_out,
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
    pub fn read_status(&mut self) -> String {
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

/// A pipe closed on exec, so that no other child inherits it (isolation exists only on
/// Linux, which makes both in one step).
#[cfg(target_os = "linux")]
fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    nix::unistd::pipe2(OFlag::O_CLOEXEC).context("cannot create a pipe")
}

#[cfg(not(target_os = "linux"))]
fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    anyhow::bail!("isolation exists only on Linux")
}
