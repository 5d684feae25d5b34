//! Warm sandboxes: a bubblewrap sandbox kept running, whose helper (the sandbox's init)
//! runs one program after another, each run's program sent with its orders. Starting
//! bubblewrap costs several times what a case of the lesson costs to run, so clings starts
//! one sandbox per worker and keeps it for every run of the process: every exercise, both
//! tiers of a grading, every save in watch mode, every game of a battle. The first are
//! started as soon as a grading is set up, while its programs are still being compiled
//! (see [`prepare`]); all end when clings does (see [`end_all`]).
//!
//! What a fresh sandbox per case gave, each run still gets: the helper starts each run
//! in pid and mount namespaces of its own, with a new working directory and `/proc`, and
//! reports it only once those namespaces are gone with every process of the run (see
//! [`helper`]). What would outlive them (System V IPC, POSIX message queues, the keyring)
//! or reach a run beside it (locks and watches on shared files, extended attributes,
//! shared futexes, sockets other than AF_UNIX) is refused by the system call filter. So a
//! run sees nothing of the one before, whoever's program that was (a student's, a
//! checker's, a referee's). A run whose program's copy cannot be tidied ends the sandbox,
//! and the next run starts a new one; so does a run that clings must stop (output flood,
//! its own wall-time limit, Ctrl-C, a cancelled grading).

use std::fs::File;
use std::io::{IoSlice, Read};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use nix::fcntl::OFlag;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::socket::{
    AddressFamily, ControlMessage, MsgFlags, SockFlag, SockType, recv, sendmsg, socketpair,
};
use nix::unistd::Pid;

use super::Termination;
use super::capture::{Output, Polled};
use super::helper::{self, Orders, READY};
use super::isolation::Bubblewrap;
use super::launch::{self, Ended};
use super::limits::Limits;
use super::live::Live;
use super::process::{Activity, Exit, Group};
use super::relay::Relay;
use crate::util::parallel::{lock, wait};
use crate::util::timings::{self, Phase};

/// The descriptor the helper takes its runs on (see [`Warm::start`]).
const STDIN: RawFd = 0;

/// How long a new sandbox may take to say it is ready.
const START_PATIENCE: Duration = Duration::from_secs(10);

/// How long an idle sandbox may take to end once told that no run will come (about a
/// millisecond; more only on a machine too busy to schedule it).
const CLOSE_PATIENCE: Duration = Duration::from_secs(1);

/// The sandboxes waiting for runs, and those being started for runs to come.
struct Pool {
    /// The one used last at the end.
    idle: Vec<Warm>,
    /// One key for each sandbox being started by [`prepare`].
    starting: Vec<Key>,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    idle: Vec::new(),
    starting: Vec::new(),
});

/// Tells waiting workers that a sandbox started by [`prepare`] is ready (or failed).
static STARTED: Condvar = Condvar::new();

/// Idle sandboxes kept at most: on each core a program and its checker or referee, and
/// as many again for a grading beside it (`grade --jobs`).
fn most_idle() -> usize {
    4 * crate::util::parallel::default_jobs()
}

/// What a warm sandbox was started for: runs that need another scratch size need another.
#[derive(Clone, Debug, PartialEq)]
struct Key {
    bwrap: Bubblewrap,
    scratch_bytes: u64,
}

/// One run's descriptors: what the program reads, its files, and the cgroups it joins.
pub struct RunFds<'a> {
    pub stdin: BorrowedFd<'a>,
    /// The run's file channel, if it has files (see [`super::files`]).
    pub files: Option<BorrowedFd<'a>>,
    /// Where a battle's player's run is told to stop and go on (see [`super::relay`]).
    pub turns: Option<BorrowedFd<'a>>,
    /// The file each of the run's cgroups is joined by (`tasks` or `cgroup.procs`), open
    /// for writing.
    pub cgroups: &'a [RawFd],
    /// Where what the run writes on stdout goes besides the report, in a conversation.
    pub relay: Option<Arc<Relay>>,
}

/// Starts `count` sandboxes for runs with a scratch directory of `scratch_bytes`, in the
/// background: they are ready when the programs are built. Workers that find no idle
/// sandbox wait for these rather than start their own.
pub fn prepare(bwrap: &Bubblewrap, scratch_bytes: u64, count: usize) {
    let key = Key {
        bwrap: bwrap.clone(),
        scratch_bytes,
    };
    let wanted = {
        let mut pool = lock(&POOL);
        let have = pool.idle.iter().filter(|warm| warm.key == key).count()
            + pool
                .starting
                .iter()
                .filter(|starting| **starting == key)
                .count();
        let wanted = count.saturating_sub(have);
        pool.starting
            .extend(std::iter::repeat_n(key.clone(), wanted));
        wanted
    };
    for _ in 0..wanted {
        let starting = key.clone();
        let started = std::thread::Builder::new()
            .name("sandbox start".into())
            .spawn(move || start_over(&starting, Warm::start(starting.clone()).ok()));
        if started.is_err() {
            start_over(&key, None);
        }
    }
}

/// A start that [`prepare`] began is over: `warm` joins the idle sandboxes if it started.
/// One that did not is started again, with its error, by the run that needs it.
fn start_over(key: &Key, warm: Option<Warm>) {
    let mut pool = lock(&POOL);
    if let Some(index) = pool.starting.iter().position(|starting| starting == key) {
        pool.starting.remove(index);
    }
    pool.idle.extend(warm);
    drop(pool);
    STARTED.notify_all();
}

/// Runs `orders` in a warm sandbox (an idle one, or a new one) with `program` copied in;
/// the run as clings saw it, and the helper's report.
pub fn run(
    bwrap: &Bubblewrap,
    program: &Path,
    orders: Orders,
    fds: RunFds,
    limits: &Limits,
) -> Result<(Ended, String)> {
    let key = Key {
        bwrap: bwrap.clone(),
        scratch_bytes: limits.file_size_bytes,
    };
    let program =
        File::open(program).with_context(|| format!("cannot read {}", program.display()))?;
    let mut warm = match take(&key) {
        Some(warm) => warm,
        None => Warm::start(key)?,
    };
    let ran = warm.run(&orders, program.as_fd(), fds, limits)?;
    if ran.reusable {
        keep(warm);
    }
    Ok((ran.ended, ran.report))
}

/// The sandboxes ending on a thread of their own (see [`end_soon`]).
static ENDING: Mutex<Option<std::thread::JoinHandle<()>>> = Mutex::new(None);

/// No run is to come (a `clings test` has graded all it grades): the sandboxes end on a
/// thread of their own, beside what clings does last (its report), which then need not
/// wait for them; [`end_all`] does.
pub fn end_soon() {
    if let Ok(ending) = std::thread::Builder::new()
        .name("sandboxes end".into())
        .spawn(end_idle)
    {
        lock(&ENDING).replace(ending);
    }
}

/// Ends every sandbox, once those being started are ready: clings is done. Each ends as a
/// process of clings, reaped by it, rather than being killed with it and left to the
/// machine's init.
pub fn end_all() {
    if let Some(ending) = lock(&ENDING).take() {
        let _ = ending.join();
    }
    end_idle();
}

/// Ends the idle sandboxes, once those being started are ready.
fn end_idle() {
    let ended: Vec<Warm> = {
        let mut pool = lock(&POOL);
        while !pool.starting.is_empty() {
            pool = wait(&STARTED, pool);
        }
        std::mem::take(&mut pool.idle)
    };
    // Each on a thread of its own: they end side by side, as quickly as one.
    std::thread::scope(|scope| {
        for warm in ended {
            scope.spawn(move || drop(warm));
        }
    });
}

/// An idle sandbox for `key`, the one used last, waiting for one that [`prepare`] is
/// starting if there is no other; one whose helper is gone (killed by the OOM killer,
/// say) ends here.
fn take(key: &Key) -> Option<Warm> {
    let mut gone = Vec::new();
    let found = {
        let mut pool = lock(&POOL);
        loop {
            if let Some(index) = pool.idle.iter().rposition(|warm| warm.key == *key) {
                let warm = pool.idle.remove(index);
                if warm.alive() {
                    break Some(warm);
                }
                gone.push(warm);
            } else if pool.starting.contains(key) {
                pool = wait(&STARTED, pool);
            } else {
                break None;
            }
        }
    };
    drop(gone);
    found
}

/// Puts `warm` back for the next run; the sandbox used longest ago ends if there are too
/// many.
fn keep(warm: Warm) {
    let oldest = {
        let mut pool = lock(&POOL);
        pool.idle.push(warm);
        (pool.idle.len() > most_idle()).then(|| pool.idle.remove(0))
    };
    drop(oldest);
}

/// Starts `command` from one of the threads that live as long as clings: bubblewrap dies
/// with the thread that started it (`--die-with-parent`), and a sandbox outlives the
/// worker that asked for it. One thread per core: workers start their sandboxes at once.
fn spawn(command: Command) -> std::io::Result<Child> {
    type Order = (Command, Sender<std::io::Result<Child>>);
    static STARTERS: OnceLock<Sender<Order>> = OnceLock::new();
    let starters = STARTERS.get_or_init(|| {
        let (orders, received) = mpsc::channel::<Order>();
        let received = Arc::new(Mutex::new(received));
        for _ in 0..crate::util::parallel::default_jobs() {
            let received = Arc::clone(&received);
            let started = std::thread::Builder::new()
                .name("sandboxes".into())
                .spawn(move || {
                    loop {
                        let order = lock(&received).recv();
                        let Ok((mut command, answer)) = order else {
                            return;
                        };
                        let _ = answer.send(command.spawn());
                    }
                });
            // With no thread at all, `spawn` says so below.
            drop(started);
        }
        orders
    });
    let (answer, answered) = mpsc::channel();
    let gone = || std::io::Error::other("no thread can start sandboxes");
    starters.send((command, answer)).map_err(|_| gone())?;
    answered.recv().map_err(|_| gone())?
}

/// A running sandbox waiting for runs.
struct Warm {
    key: Key,
    /// bubblewrap's process group: bubblewrap, and the helper with it.
    group: Arc<Group>,
    socket: OwnedFd,
    /// What bubblewrap or the helper said on stderr: why a sandbox did not start.
    stderr: File,
    stopped: bool,
}

/// One run in a warm sandbox.
struct Ran {
    ended: Ended,
    report: String,
    /// Whether the sandbox is clean and alive for the next run.
    reusable: bool,
}

impl Warm {
    /// Starts a sandbox for `key` and waits for it to be ready.
    fn start(key: Key) -> Result<Warm> {
        let _timing = timings::measure(Phase::SandboxStart);
        let (ours, theirs) = socketpair(
            AddressFamily::Unix,
            SockType::SeqPacket,
            None,
            SockFlag::SOCK_CLOEXEC,
        )
        .context("cannot create the sandbox's socket")?;
        // The helper's socket is its stdin. bubblewrap and the helper are a process group
        // of their own: out of reach of the terminal's Ctrl-C, and killed whole; each run's
        // program is in a session of its own (see [`helper`]), with no terminal. With
        // nothing to do between fork and exec, the standard library starts bubblewrap
        // without copying clings' memory (posix_spawn): that copy was the longest step of
        // a sandbox's start.
        let mut command = key.bwrap.serving_command(STDIN, key.scratch_bytes);
        command
            .env_clear()
            .process_group(0)
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = spawn(command).context("cannot start bubblewrap")?;
        let stderr = child.stderr.take().expect("stderr is piped");
        nix::fcntl::fcntl(
            stderr.as_fd(),
            nix::fcntl::FcntlArg::F_SETFL(OFlag::O_NONBLOCK),
        )
        .context("cannot read bubblewrap's errors")?;
        let mut warm = Warm {
            key,
            group: Arc::new(Group::new(Pid::from_raw(child.id() as i32))),
            socket: ours,
            stderr: File::from(OwnedFd::from(stderr)),
            stopped: false,
        };
        match warm.answer(START_PATIENCE) {
            Answer::Said(said) if said == READY => Ok(warm),
            answer => {
                warm.stop()?;
                bail!("the sandbox did not start ({answer:?}): {}", warm.said())
            }
        }
    }

    fn run(
        &mut self,
        orders: &Orders,
        program: BorrowedFd,
        fds: RunFds,
        limits: &Limits,
    ) -> Result<Ran> {
        let (stdout_read, stdout_write) = pipe()?;
        let (stderr_read, stderr_write) = pipe()?;
        let mut passed = vec![
            fds.stdin.as_raw_fd(),
            stdout_write.as_raw_fd(),
            stderr_write.as_raw_fd(),
            program.as_raw_fd(),
        ];
        passed.extend(fds.files.map(|fd| fd.as_raw_fd()));
        passed.extend(fds.turns.map(|fd| fd.as_raw_fd()));
        passed.extend_from_slice(fds.cgroups);
        anyhow::ensure!(passed.len() <= helper::MAX_FDS, "too many cgroups");
        let message = orders.to_message();
        let started = Instant::now();
        sendmsg::<()>(
            self.socket.as_raw_fd(),
            &[IoSlice::new(&message)],
            &[ControlMessage::ScmRights(&passed)],
            MsgFlags::empty(),
            None,
        )
        .context("cannot give the sandbox its run")?;
        // Only the program holds the write ends now, so reading them ends with the run.
        drop((stdout_write, stderr_write));
        let live = Live::register(Arc::clone(&self.group));
        // The helper enforces the wall time; clings stops the sandbox only if it has not.
        let patience = limits.wall_time + super::HELPER_GRACE;
        let group = Arc::clone(&self.group);
        let (answer, output) = match fds.relay {
            // What a conversation's side says is passed on as it comes, whatever this
            // thread waits for.
            Some(relay) => {
                let output = Output::start(
                    Some(File::from(stdout_read)),
                    Some(File::from(stderr_read)),
                    limits.output_bytes,
                    &group,
                    Some(relay),
                );
                (self.answer(patience), Reading::Threads(output))
            }
            None => {
                let mut output = Polled::new(stdout_read, stderr_read, limits.output_bytes, &group);
                let answer = match output.read_until(self.socket.as_fd(), patience) {
                    true => self.answer(Duration::ZERO),
                    false => Answer::Silent,
                };
                (answer, Reading::Here(output))
            }
        };
        let elapsed = started.elapsed();
        // A helper silent past the time limit could not say what its program was doing.
        let timed_out = matches!(answer, Answer::Silent).then_some(Activity::Idle);
        drop(live);
        let report = match answer {
            Answer::Said(report) => report,
            Answer::Silent | Answer::Gone => String::new(),
        };
        // A run the helper did not end cleanly may still hold the pipes: stop it first.
        let ready = report.ends_with(READY);
        if !ready {
            self.stop()?;
        }
        let captured = match output {
            Reading::Threads(output) => output.finish(),
            Reading::Here(output) => output.finish(),
        };
        let reusable = ready && !captured.flooded;
        if !reusable {
            self.stop()?;
        }
        let killed = Exit {
            termination: Termination::Signaled(libc::SIGKILL),
            cpu_time: Duration::ZERO,
            peak_memory_bytes: 0,
        };
        Ok(Ran {
            ended: Ended {
                exit: killed,
                elapsed,
                stdout: captured.stdout,
                stderr: captured.stderr,
                flooded: captured.flooded,
                timed_out,
            },
            report,
            reusable,
        })
    }

    /// Whether the helper still waits for runs: a helper that ended has closed its end of
    /// the socket.
    fn alive(&self) -> bool {
        let mut polled = [PollFd::new(self.socket.as_fd(), PollFlags::POLLIN)];
        matches!(poll(&mut polled, PollTimeout::ZERO), Ok(0))
    }

    /// The helper's next message, waiting at most `patience`.
    fn answer(&self, patience: Duration) -> Answer {
        let deadline = Instant::now() + patience;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let timeout = PollTimeout::try_from(left.as_millis().min(i32::MAX as u128) as i32)
                .unwrap_or(PollTimeout::MAX);
            let mut polled = [PollFd::new(self.socket.as_fd(), PollFlags::POLLIN)];
            match poll(&mut polled, timeout) {
                Ok(0) => return Answer::Silent,
                Ok(_) => break,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return Answer::Gone,
            }
        }
        let mut buffer = [0u8; 1024];
        match recv(self.socket.as_raw_fd(), &mut buffer, MsgFlags::empty()) {
            Ok(0) | Err(_) => Answer::Gone,
            Ok(length) => Answer::Said(String::from_utf8_lossy(&buffer[..length]).into_owned()),
        }
    }

    /// Ends the sandbox at once, a run under way or not: bubblewrap and its init, and with
    /// the init every process in it; checks that none is left.
    fn stop(&mut self) -> Result<()> {
        self.group.kill();
        self.end(None)
    }

    /// Ends an idle sandbox, where no run is left: told that no run will come, the helper
    /// ends, and bubblewrap after it once it has reaped it, so that the group is gone when
    /// bubblewrap is reaped. Killed instead, bubblewrap leaves its init to the machine's
    /// init to reap, and checking that the init is gone means reading every process's
    /// status in /proc. One that does not end soon is killed.
    fn close(&mut self) -> Result<()> {
        let _ =
            nix::sys::socket::shutdown(self.socket.as_raw_fd(), nix::sys::socket::Shutdown::Both);
        self.end(Some(CLOSE_PATIENCE))
    }

    /// Waits for bubblewrap (killing the group past `patience`), reaps it and checks that
    /// nothing of the sandbox is left; once.
    fn end(&mut self, patience: Option<Duration>) -> Result<()> {
        if std::mem::replace(&mut self.stopped, true) {
            return Ok(());
        }
        let _ = self.group.wait(patience);
        launch::verify_gone(&self.group, true, None)
    }

    /// What bubblewrap and the helper said on stderr.
    fn said(&mut self) -> String {
        let mut said = Vec::new();
        let _ = self.stderr.read_to_end(&mut said);
        String::from_utf8_lossy(&said).trim().to_string()
    }
}

impl Drop for Warm {
    fn drop(&mut self) {
        // A sandbox with a run under way was stopped already: this one is idle.
        // Nothing to tell anyone any more; a process left would be a zombie of init's.
        let _ = self.close();
    }
}

/// A run's output being read: on threads of their own, or by the thread that waits.
enum Reading<'g> {
    Threads(Output),
    Here(Polled<'g>),
}

#[derive(Debug)]
enum Answer {
    Said(String),
    /// Nothing within the time allowed.
    Silent,
    /// The helper is gone (killed, or it ended).
    Gone,
}

fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    nix::unistd::pipe2(OFlag::O_CLOEXEC).context("cannot create a pipe")
}
