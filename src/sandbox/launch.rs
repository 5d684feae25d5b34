//! One run's command, with isolation or without, from its start to the check that nothing
//! of it is left.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::unistd::Pid;

use super::capture::Output;
use super::cgroup::Joiner;
use super::container::Container;
use super::helper::{FileChannel, Orders};
use super::isolation::{self, Bubblewrap};
use super::limits::Limits;
use super::live::Live;
use super::process::{Activity, Exit, Group};
use super::relay::Relay;
use super::{Job, Program, procs, user};
use crate::util::temp;

/// The run's file channel, if it has one, as a descriptor the helper inherits.
fn inherit_channel(channel: Option<&File>, inherited: &mut Vec<OwnedFd>) -> Result<FileChannel> {
    let Some(channel) = channel else {
        return Ok(FileChannel::None);
    };
    let fd = OwnedFd::from(channel.try_clone().context("cannot pass the run's files")?);
    let files = FileChannel::Inherited(fd.as_raw_fd());
    inherited.push(fd);
    Ok(files)
}

/// The tasks of a run besides its program's, when clings is not root: the two threads that
/// read the program's output, the helper (which waits for the program on its one thread),
/// and room for one more of clings' own: they come and go, and a count taken as the run
/// starts may be one short.
const RUN_TASKS: u64 = 4;

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
    /// clings stopped it at `wall_limit`, finding it doing this.
    pub timed_out: Option<Activity>,
}

/// One run's command and what goes with it until the run is over.
pub struct Launch {
    pub command: Command,
    /// Descriptors the child inherits; closed in clings once it has started.
    inherited: Vec<OwnedFd>,
    /// The read end of the helper's report.
    status: File,
    /// The scratch directory of a run without isolation, removed with the launch.
    _scratch: Option<tempfile::TempDir>,
    isolated: bool,
}

impl Launch {
    pub fn isolated(
        bwrap: &Bubblewrap,
        job: &Job,
        limits: &Limits,
        uid: Option<u32>,
        channel: Option<&File>,
        cgroup: Option<Joiner>,
    ) -> Result<Launch> {
        let (status_read, status_write) = pipe()?;
        let mut inherited = vec![status_write];
        let files = inherit_channel(channel, &mut inherited)?;
        // A battle's player is stopped while the other one moves: the helper, the
        // sandbox's init, reads when on a pipe whose other end the player's relay writes.
        let turns = match job.conversation {
            Some((_, relay)) => relay.turn_channel()?.map(File::from),
            None => None,
        };
        let turns = inherit_channel(turns.as_ref(), &mut inherited)?;
        let program = match job.program {
            Program::Built(path) => {
                let file =
                    File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
                let fd = file.as_raw_fd();
                inherited.push(file.into());
                isolation::Executable::Copied(fd)
            }
            Program::Installed(path) => isolation::Executable::InPlace(path),
        };
        if let Some(workdir) = job.workdir {
            give_to(workdir, uid)?;
        }
        give_folders(job, uid)?;
        let status_fd = inherited[0].as_raw_fd();
        let workdir = PathBuf::from(isolation::SCRATCH);
        let env = super::program_env(job, limits, &workdir);
        let mut command = bwrap.command(
            &isolation::Run {
                program,
                args: job.args,
                workdir: job.workdir,
                env: &env,
                status_fd,
                files,
                turns,
                collect: job.files.collect,
                memory_watch: memory_watch(limits, cgroup.is_some()),
                folders: job.folders,
            },
            limits,
            uid,
        );
        let passed: Vec<RawFd> = inherited.iter().map(AsRawFd::as_raw_fd).collect();
        // SAFETY: setsid, fcntl and the cgroup's write are async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                nix::unistd::setsid()?;
                // bubblewrap joins the run's cgroup, and with it everything it starts.
                if let Some(cgroup) = cgroup {
                    cgroup.join()?;
                }
                for fd in &passed {
                    // Clears close-on-exec on a descriptor of this (child) process.
                    if libc::fcntl(*fd, libc::F_SETFD, 0) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        Ok(Launch {
            command,
            inherited,
            status: status_read.into(),
            _scratch: None,
            isolated: true,
        })
    }

    /// Without namespaces: the helper runs as a plain child of clings, in the run's own
    /// session, with a scratch directory of the host as the working directory; in the
    /// container tier, the program is confined to it and the system's directories.
    pub fn direct(
        job: &Job,
        limits: &Limits,
        uid: Option<u32>,
        channel: Option<&File>,
        cgroup: Option<Joiner>,
        container: Option<&Container>,
    ) -> Result<Launch> {
        let scratch = temp::dir_to_run_from("clings-run-", "a scratch directory for the program")?;
        // The program's copy goes beside its working directory, which starts empty.
        let workdir = match job.workdir {
            Some(dir) => dir.to_path_buf(),
            // Writable by the run's user whoever it is, as every tier's working directory
            // is; its parent, the scratch directory, is the run's own.
            None => {
                let dir = scratch.path().join("work");
                std::fs::create_dir(&dir)
                    .and_then(|()| {
                        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777))
                    })
                    .context("cannot create a scratch directory for the program")?;
                dir
            }
        };
        give_to(scratch.path(), uid)?;
        give_to(&workdir, uid)?;
        give_folders(job, uid)?;
        let program = match job.program {
            // The build cache may be out of the run's user's reach (a private course
            // directory), and a program must not change its own build: it gets a copy,
            // which it may run but not change.
            Program::Built(path) => {
                let copy = scratch.path().join(".program");
                std::fs::copy(path, &copy)
                    .and_then(|_| {
                        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o555))
                    })
                    .with_context(|| format!("cannot copy {} to run it", path.display()))?;
                copy
            }
            Program::Installed(path) => path.to_path_buf(),
        };
        let processes = match uid {
            Some(_) => limits.processes,
            // RLIMIT_NPROC counts every process and thread of the user: the program's come
            // on top of the user's others, clings' threads, and the run's own tasks.
            None => {
                user::others_task_count() + user::own_thread_count() + RUN_TASKS + limits.processes
            }
        };
        let (status_read, status_write) = pipe()?;
        let mut inherited = vec![status_write];
        let files = inherit_channel(channel, &mut inherited)?;
        let orders = Orders {
            rlimits: limits.rlimits(processes),
            uid,
            wall_time: limits.wall_time,
            program: program.to_string_lossy().into_owned(),
            args: job.args.to_vec(),
            env: super::program_env(job, limits, &workdir),
            files,
            // A run of its own has no init that could stop its processes alone.
            turns: FileChannel::None,
            collect: job.files.collect.to_vec(),
            // The program's copy is beside the working directory, out of its reach.
            confine: container.map(|container| {
                let copy = matches!(job.program, Program::Built(_)).then_some(program.as_path());
                container.confinement(copy, &workdir, job.folders)
            }),
            memory_watch: memory_watch(limits, cgroup.is_some()),
        };
        let status_fd = inherited[0].as_raw_fd();
        let helper = std::env::current_exe().context("cannot find clings' own executable")?;
        let mut command = Command::new(helper);
        // A program with folders works in the one it reads; its scratch directory is
        // still its TMPDIR.
        command.args(orders.to_args(status_fd)).current_dir(
            job.folders
                .map_or(workdir.as_path(), |folders| folders.read),
        );
        let passed: Vec<RawFd> = inherited.iter().map(AsRawFd::as_raw_fd).collect();
        let clings = nix::unistd::getpid();
        // SAFETY: setsid, prctl, getppid, fcntl and the cgroup's write are async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                // A session of its own: no controlling terminal to read or write, and a
                // process group to kill whole.
                nix::unistd::setsid()?;
                if let Some(cgroup) = cgroup {
                    cgroup.join()?;
                }
                for fd in &passed {
                    // Clears close-on-exec on a descriptor of this (child) process.
                    if libc::fcntl(*fd, libc::F_SETFD, 0) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                // The run must not outlive clings: the helper stops the program and every
                // process it started when clings ends (bubblewrap's --die-with-parent does
                // this for isolated runs).
                #[cfg(target_os = "linux")]
                nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGTERM)?;
                if nix::unistd::getppid() != clings {
                    return Err(std::io::Error::other(
                        "clings ended before the program started",
                    ));
                }
                Ok(())
            });
        }
        Ok(Launch {
            command,
            inherited,
            status: status_read.into(),
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
        relay: Option<Arc<Relay>>,
    ) -> Result<Ended> {
        let started = Instant::now();
        let mut child = self.command.spawn().context("cannot start it")?;
        // Only the child may hold the write ends now, so reading them ends with the run.
        self.inherited.clear();
        let leader = Pid::from_raw(child.id() as i32);
        let group = Arc::new(match self.isolated {
            true => Group::new(leader),
            false => Group::new_terminated(leader),
        });
        let live = Live::register(Arc::clone(&group));
        let output = Output::start(
            child.stdout.take(),
            child.stderr.take(),
            limits.output_bytes,
            &group,
            relay,
        );
        let (exit, timed_out) = group.wait(Some(wall_limit)).context("cannot wait for it")?;
        let elapsed = started.elapsed();
        drop(live);
        let captured = output.finish();
        verify_gone(&group, self.isolated, uid)?;
        Ok(Ended {
            exit,
            elapsed,
            stdout: captured.stdout,
            stderr: captured.stderr,
            flooded: captured.flooded,
            timed_out,
        })
    }

    /// What the helper reported. A helper that was killed with its sandbox may have left
    /// nothing, and its descendants may have held the pipe open: take what is there.
    pub fn read_status(&mut self) -> String {
        let mut bytes = Vec::new();
        let _ = fcntl(self.status.as_fd(), FcntlArg::F_SETFL(OFlag::O_NONBLOCK));
        let _ = self.status.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Checks that no process of the run is left, killing stragglers.
///
/// The run's process group holds the program, or with isolation bubblewrap, the
/// sandbox's init and the helper: none of them is alive only once the sandbox's init
/// has ended, and the kernel lets init end only after every other process of its pid
/// namespace. Without isolation, a process that left the group (setsid) is found by
/// the run's user id when clings is root, and cannot be found otherwise (the warning
/// about missing isolation says so).
pub fn verify_gone(group: &Group, isolated: bool, uid: Option<u32>) -> Result<()> {
    let leader = group.leader();
    let mut gone = wait_until_gone(|| {
        nix::sys::signal::killpg(leader, None) == Err(nix::errno::Errno::ESRCH)
            || !procs::group_has_live_process(leader.as_raw())
    });
    if let (false, Some(uid)) = (isolated, uid) {
        gone &= user::sweep(uid, REAP_PATIENCE).context("cannot stop the program's processes")?;
    }
    if !gone {
        bail!(
            "processes started by the program were still running {} s after it ended",
            REAP_PATIENCE.as_secs()
        );
    }
    Ok(())
}

/// Polls `gone` for up to [`REAP_PATIENCE`]: soon at first (a killed process is usually
/// gone within a fraction of a millisecond, and a grading waits for it), then every
/// millisecond.
fn wait_until_gone(mut gone: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + REAP_PATIENCE;
    let mut pause = Duration::from_micros(50);
    loop {
        if gone() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// The run's memory limit for its helper to watch, where no cgroup holds it.
pub fn memory_watch(limits: &Limits, in_cgroup: bool) -> Option<u64> {
    (!in_cgroup).then_some(limits.memory.bytes)
}

/// Makes the run's user the owner of its working directory, when the run has a user of
/// its own.
fn give_to(dir: &Path, uid: Option<u32>) -> Result<()> {
    let Some(uid) = uid else {
        return Ok(());
    };
    nix::unistd::chown(
        dir,
        Some(nix::unistd::Uid::from_raw(uid)),
        Some(nix::unistd::Gid::from_raw(uid)),
    )
    .with_context(|| format!("cannot give {} to the program's user", dir.display()))
}

/// Makes the run's user the owner of what the program keeps, and of all it holds (a
/// run before had a user of its own), when the run has one.
fn give_folders(job: &Job, uid: Option<u32>) -> Result<()> {
    let (Some(folders), Some(uid)) = (job.folders, uid) else {
        return Ok(());
    };
    let mut pending = vec![folders.keep.to_path_buf()];
    while let Some(path) = pending.pop() {
        // Not through a link the program left: that is the link's own owner.
        std::os::unix::fs::lchown(&path, Some(uid), Some(uid))
            .with_context(|| format!("cannot give {} to the program's user", path.display()))?;
        if path.symlink_metadata().is_ok_and(|meta| meta.is_dir()) {
            let entries = std::fs::read_dir(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            pending.extend(entries.filter_map(|entry| Some(entry.ok()?.path())));
        }
    }
    Ok(())
}

/// A pipe closed on exec, so that no other child inherits it.
#[cfg(target_os = "linux")]
fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    nix::unistd::pipe2(OFlag::O_CLOEXEC).context("cannot create a pipe")
}

/// Without pipe2 another thread's fork may inherit the pipe before close-on-exec is set;
/// its child then holds the write end until it execs, which only delays the end of
/// reading it.
#[cfg(not(target_os = "linux"))]
fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    let (read, write) = nix::unistd::pipe().context("cannot create a pipe")?;
    for fd in [&read, &write] {
        fcntl(
            fd.as_fd(),
            FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
        )
        .context("cannot create a pipe")?;
    }
    Ok((read, write))
}
