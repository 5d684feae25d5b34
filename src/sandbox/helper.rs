//! The helper: clings itself, started inside the sandbox in place of the student's program.
//! It sets the resource limits (inside the new namespaces, where RLIMIT_NPROC counts only
//! the sandbox's processes), drops to the run's own user when clings runs as root, starts
//! the program in its own session, enforces the wall time, and reports exactly how the
//! program ended. bubblewrap alone reports a death by signal as an exit status of 128 + the
//! signal, the same as `exit(139)`.
//!
//! It serves one run ([`FLAG`]: the orders on its command line, the report on a pipe), or,
//! as a warm sandbox's init ([`SERVE_FLAG`]), one run after another: each run's orders and
//! descriptors (its program's among them, which the helper copies into place) come in a
//! message on a socket, and the report goes back once every process of the run is gone.
//!
//! In a warm sandbox each run gets namespaces of its own, made fresh by construction rather
//! than cleaned after the run before: the helper starts the run's init (on its own memory,
//! see [`run_in_namespaces`]) as the first process of a new pid namespace, and that init enters a new mount namespace, where the working
//! directory is a new tmpfs, `/proc` shows the run's processes alone and the program's
//! directory is read-only. When the run's init ends, its namespaces end with it, and with
//! them every process, file, attribute, timestamp and pid count the run left.

use std::ffi::{CStr, CString, OsString};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use std::sync::atomic::{AtomicI32, Ordering};

use anyhow::Context;
use nix::mount::MsFlags;
use nix::unistd::Pid;
use serde::{Deserialize, Serialize};

use super::Termination;
use super::container::Confinement;
use super::limits::Rlimits;
use super::process::{self, Activity, Group};
use super::{files, procs, seccomp};
use crate::util::file_identity::Identity;

/// The most arguments a program is given (the compiler's flags and files).
const MAX_ARGS: usize = 256;

/// The first argument that turns clings into the helper of one run; never typed by a person.
pub const FLAG: &str = "--clings-sandbox-helper";
/// The first argument that turns clings into the helper of a warm sandbox, serving runs
/// on the socket whose descriptor follows.
pub const SERVE_FLAG: &str = "--clings-sandbox-server";

/// A warm sandbox's directory for the program of the run under way, which the helper
/// copies there (the sandbox's `/program` is a link to it): read-only in the run's own
/// mount namespace.
pub const PROGRAM_DIR: &str = "/run-program";
/// The run's working directory, its only writable place.
pub const SCRATCH: &str = "/work";
/// The most files and folders a run's working directory holds (a case's given files and
/// what it writes are a few).
pub const SCRATCH_INODES: u32 = 1024;

/// The program in [`PROGRAM_DIR`].
pub const PROGRAM_FILE: &str = "/run-program/program";

/// What the helper serving a warm sandbox says when it is ready for a run: first after it
/// started, then after each report once the run has left nothing behind.
pub const READY: &str = "ready";

/// The most descriptors a run's message carries: stdin, stdout, stderr, the program, the
/// file channel, the turn channel and the run's cgroups (one per controller hierarchy).
pub const MAX_FDS: usize = 9;

/// What one run is: the program, how it is limited, and what it gets. It travels as JSON,
/// the one format of the helper's protocol: as the helper's last argument for a run of its
/// own, as a warm sandbox's message otherwise; the report comes back the same way.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Orders {
    pub rlimits: Rlimits,
    /// The user to run the program as (only when clings runs as root).
    pub uid: Option<u32>,
    pub wall_time: Duration,
    /// The program's path, and its `argv[0]`.
    pub program: String,
    /// The program's arguments after its name.
    pub args: Vec<String>,
    /// The program's whole environment, `NAME=value`.
    pub env: Vec<String>,
    /// Where the run's files travel (see [`files`]).
    pub files: FileChannel,
    /// For a battle's player, the channel on which its init (the run's pid namespace's,
    /// where the helper is) is told when to stop every process of the run while the
    /// other player moves, and when to let them go on.
    pub turns: FileChannel,
    /// The files to take from the working directory once the run is over.
    pub collect: Vec<String>,
    /// In the container tier, what the program may reach (see [`super::container`]).
    pub confine: Option<Confinement>,
    /// Where no cgroup counts the run's memory: the most all its processes together may
    /// have of their own, watched by the helper, which stops the run past it.
    pub memory_watch: Option<u64>,
}

/// How a run's file channel (or its turn channel) reaches the helper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FileChannel {
    /// The run is given no file and leaves none that matters (takes no turns).
    None,
    /// Inherited as this descriptor (a run of its own).
    Inherited(RawFd),
    /// The fifth descriptor of a warm sandbox's message, after stdin, stdout, stderr and
    /// the program (the turn channel: after the file channel).
    Passed,
}

impl FileChannel {
    /// The inherited descriptor, as a file.
    fn inherited(self) -> Option<File> {
        match self {
            // SAFETY: the fd was opened for the helper by clings and is used only here.
            FileChannel::Inherited(fd) => Some(unsafe { File::from_raw_fd(fd) }),
            FileChannel::None | FileChannel::Passed => None,
        }
    }
}

impl Orders {
    fn encode(&self) -> String {
        serde_json::to_string(self).expect("orders serialize")
    }

    /// The helper's command line for one run reporting on `status_fd`.
    pub fn to_args(&self, status_fd: RawFd) -> Vec<String> {
        vec![FLAG.to_string(), status_fd.to_string(), self.encode()]
    }

    fn from_args(args: &[OsString]) -> Option<(RawFd, Orders)> {
        let args: Vec<&str> = args.iter().map(|arg| arg.to_str()).collect::<Option<_>>()?;
        let [flag, status_fd, orders] = args.as_slice() else {
            return None;
        };
        if *flag != FLAG {
            return None;
        }
        Some((status_fd.parse().ok()?, serde_json::from_str(orders).ok()?))
    }

    /// A warm sandbox's message for this run.
    pub fn to_message(&self) -> Vec<u8> {
        self.encode().into_bytes()
    }

    fn from_message(message: &[u8]) -> Option<Orders> {
        serde_json::from_slice(message).ok()
    }
}

/// How the program ended, as the helper saw it: one line of JSON.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub exit: Option<ExitReport>,
    /// errno of a failed exec: the program never started.
    pub exec_error: Option<i32>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct ExitReport {
    pub termination: Termination,
    pub cpu_time: Duration,
    pub peak_memory_bytes: u64,
    pub elapsed: Duration,
    /// The helper stopped the program at the wall-time limit.
    pub wall_timeout: bool,
    /// It was running then (on a processor, or waiting for one), not asleep.
    pub running: bool,
    /// The helper stopped the run when its processes together had more memory than the
    /// run may (see [`Orders::memory_watch`]).
    #[serde(default)]
    pub memory_exceeded: bool,
}

impl Report {
    /// Reads what the helper wrote; a helper that was killed wrote nothing, or half a line.
    pub fn parse(text: &str) -> Report {
        let line = text.lines().next().unwrap_or_default();
        serde_json::from_str(line).unwrap_or_default()
    }

    fn render(&self) -> String {
        serde_json::to_string(self).expect("a report serializes") + "\n"
    }
}

/// Runs the helper when clings was started as one; `None` for a normal start.
pub fn main_if_helper() -> Option<ExitCode> {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let first = args.first()?;
    let served = if first == FLAG {
        let Some((status_fd, orders)) = Orders::from_args(&args) else {
            eprintln!("clings sandbox helper: bad arguments {args:?}");
            return Some(ExitCode::from(125));
        };
        supervise_one(status_fd, &orders)
    } else if first == SERVE_FLAG {
        let number = |index: usize| args.get(index).and_then(|arg| arg.to_str()?.parse().ok());
        let (Some(socket), Some(scratch_bytes)) = (number(1), number(2)) else {
            eprintln!("clings sandbox helper: bad arguments {args:?}");
            return Some(ExitCode::from(125));
        };
        serve(socket as RawFd, scratch_bytes)
    } else {
        return None;
    };
    Some(match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("clings sandbox helper: {err:#}");
            ExitCode::from(125)
        }
    })
}

/// The program's process group, for the SIGTERM handler.
static PROGRAM: AtomicI32 = AtomicI32::new(0);

/// SIGTERM (clings ended, or stops this run) kills the program's group; the helper then
/// ends the rest of the run as it does after any program.
extern "C" fn stop_program(_: libc::c_int) {
    let program = PROGRAM.load(Ordering::SeqCst);
    if program > 0 {
        // SAFETY: kill is async-signal-safe.
        unsafe { libc::kill(-program, libc::SIGKILL) };
    }
}

/// What the helper does before its first run. Returns whether it is the sandbox's init.
fn prepare() -> anyhow::Result<bool> {
    let init = std::process::id() == 1;
    // The program, of the same user when clings is not root, must not trace this process
    // or read its memory (/proc/<pid>/mem, which no system call filter can refuse).
    seccomp::protect_helper().context("cannot protect the helper from the program")?;
    // SAFETY: plain system calls and a handler that only calls kill.
    unsafe {
        // clings may be gone when the report is written.
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        if !init {
            // Without a pid namespace, processes that leave the program's group and lose
            // their parent (setsid, double fork) come to the helper, which ends them.
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            libc::signal(
                libc::SIGTERM,
                stop_program as *const () as libc::sighandler_t,
            );
        }
    }
    Ok(init)
}

/// One run, its orders on the command line, its report on `status_fd`.
fn supervise_one(status_fd: RawFd, orders: &Orders) -> anyhow::Result<()> {
    // SAFETY: the fd was opened for the helper by clings and is used only here.
    let mut status = unsafe { File::from_raw_fd(status_fd) };
    let channel = orders.files.inherited();
    let turns = orders.turns.inherited();
    let init = prepare()?;
    // Only a pid namespace's init stops every process of the run but itself.
    anyhow::ensure!(
        turns.is_none() || init,
        "a run that takes turns needs a pid namespace of its own"
    );
    let report = run(orders, None, turns, channel.as_ref())?;
    status
        .write_all(report.as_bytes())
        .context("cannot report the program's status")
}

/// A warm sandbox: runs as they come on `socket`, until clings closes it, each in
/// namespaces of its own with a working directory of `scratch_bytes`. After each run the
/// helper says [`READY`] only if the run left nothing behind; otherwise it ends, and with
/// it the sandbox.
fn serve(socket: RawFd, scratch_bytes: u64) -> anyhow::Result<()> {
    // SAFETY: the fd was opened for the helper by clings and is used only here.
    let socket = unsafe { OwnedFd::from_raw_fd(socket) };
    let init = prepare()?;
    anyhow::ensure!(
        init,
        "a warm sandbox's helper must be its pid namespace's init"
    );
    send(&socket, READY)?;
    // Orders are a few hundred bytes; the most a run may be given is far below this.
    let mut buffer = vec![0u8; 64 * 1024];
    let mut slot = ProgramSlot::default();
    let mut ending = EndingInits::default();
    let stack = InitStack::new()?;
    loop {
        let Some((message, fds)) = receive(&socket, &mut buffer)? else {
            return Ok(());
        };
        let orders = Orders::from_message(message).context("bad orders")?;
        let mut fds = fds.into_iter();
        let (Some(stdin), Some(stdout), Some(stderr), Some(program)) =
            (fds.next(), fds.next(), fds.next(), fds.next())
        else {
            anyhow::bail!("a run needs stdin, stdout, stderr and its program");
        };
        slot.fill(File::from(program))?;
        let channel = match orders.files {
            FileChannel::Passed => Some(File::from(
                fds.next().context("a run's file channel is missing")?,
            )),
            _ => None,
        };
        let turns = match orders.turns {
            FileChannel::Passed => Some(File::from(
                fds.next().context("a run's turn channel is missing")?,
            )),
            _ => None,
        };
        let stdio = Stdio {
            fds: [stdin, stdout, stderr],
            cgroups: fds.collect(),
        };
        let mut report = run_in_namespaces(
            &orders,
            (stdio, turns, channel),
            scratch_bytes,
            &mut ending,
            &stack,
        )?;
        // The run's files went with its namespaces; its program's copy is checked.
        let clean = slot.tidy();
        if clean {
            report.push_str(READY);
        }
        send(&socket, &report)?;
        if !clean {
            return Ok(());
        }
    }
}

/// A warm sandbox's run gets its own stdin, stdout and stderr, and joins its cgroups.
struct Stdio {
    fds: [OwnedFd; 3],
    /// The file each of the run's cgroups is joined by (`tasks` or `cgroup.procs`), open
    /// for writing.
    cgroups: Vec<OwnedFd>,
}

/// What a run's init reports instead of the run when it could not set the run up.
const SETUP_FAILED: &str = "setup_failed=";

/// The inits of runs that are over but may still be ending: the kernel takes a while
/// (waiting out an RCU grace period, 1 to 20 ms) to take down a mount namespace, which
/// need not hold up the report. Each has ended every process of its run and is past
/// running any code: only its namespaces are still going.
#[derive(Default)]
struct EndingInits(Vec<Pid>);

/// Runs' inits left ending at most beside a run of a user of its own: a few grace periods'
/// worth of runs.
const MOST_ENDING: usize = 16;

impl EndingInits {
    /// Reaps the inits that have ended, and waits for the oldest ones until at most `kept`
    /// are left: several may go on ending beside a run of a user of its own (clings is
    /// root), none beside a run of the helper's own user, whose process limit counts them.
    fn reap(&mut self, kept: usize) -> anyhow::Result<()> {
        let mut left = Vec::with_capacity(self.0.len());
        for init in self.0.drain(..) {
            match nix::sys::wait::waitpid(init, Some(nix::sys::wait::WaitPidFlag::WNOHANG)) {
                Ok(nix::sys::wait::WaitStatus::StillAlive) => left.push(init),
                Ok(_) => {}
                Err(err) => return Err(err).context("cannot reap a run's init"),
            }
        }
        while left.len() > kept {
            process::reap(left.remove(0)).context("cannot reap a run's init")?;
        }
        self.0 = left;
        Ok(())
    }
}

/// What a run's init is given: the run's stdio and cgroups, its turn channel and its file
/// channel.
type Given = (Stdio, Option<File>, Option<File>);

/// Runs `orders` under an init of the run's own, the first process of new pid and mount
/// namespaces, which sets the mount namespace up (see [`enter_run_namespace`]) and then does
/// what [`run`] does; the report for clings, once that init has ended every process of the
/// run. The init itself, ending, joins `ending`.
///
/// The init shares the helper's memory (on a stack of its own) and descriptors, and the
/// helper waits (`CLONE_VFORK`) until it has ended, as a fork's parent waits for its
/// child: the helper is not copied for each run (its page tables, faulted in again and
/// taken down at the init's end, cost each run about half what the lesson's programs take
/// to run). So the init is the only one to run on that memory while it lives, and must
/// leave it and the descriptors as the helper expects: it starts no thread, frees and
/// closes only what it was given or made (once it has started the program, the program
/// alone holds the run's stdio, as the end of a conversation needs), and puts its report
/// where the helper reads it.
fn run_in_namespaces(
    orders: &Orders,
    given: Given,
    scratch_bytes: u64,
    ending: &mut EndingInits,
    stack: &InitStack,
) -> anyhow::Result<String> {
    ending.reap(if orders.uid.is_some() { MOST_ENDING } else { 0 })?;
    let mut init = Init {
        orders,
        scratch_bytes,
        given: std::mem::ManuallyDrop::new(given),
        report: None,
    };
    let flags = libc::CLONE_VM
        | libc::CLONE_FILES
        | libc::CLONE_VFORK
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWNS
        | libc::SIGCHLD;
    // SAFETY: the stack is the helper's, for the init alone, and `init` outlives the init
    // (clone returns once it has ended).
    let pid = unsafe { libc::clone(begin_init, stack.top(), flags, (&raw mut init).cast()) };
    if pid < 0 {
        let err = std::io::Error::last_os_error();
        // The init never ran: what it was to be given is the helper's still.
        drop(std::mem::ManuallyDrop::into_inner(init.given));
        return Err(err).context("cannot start the run's init");
    }
    // The init has taken what it was given, and closed and freed it.
    ending.0.push(Pid::from_raw(pid));
    let report = init
        .report
        .context("the run's init ended without a report")?;
    if let Some(failure) = report.strip_prefix(SETUP_FAILED) {
        anyhow::bail!("cannot set the run up: {}", failure.trim_end());
    }
    Ok(report)
}

/// What the helper hands a run's init (see [`run_in_namespaces`]), and where the init
/// leaves its report.
struct Init<'a> {
    orders: &'a Orders,
    scratch_bytes: u64,
    /// Taken by the init, once.
    given: std::mem::ManuallyDrop<Given>,
    report: Option<String>,
}

/// The run's init: the first process of its pid namespace, in a mount namespace of its
/// own, on the helper's memory.
extern "C" fn begin_init(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the helper's `Init`, which the helper, waiting until this process
    // ends, does not touch meanwhile; what it gives is taken once, here.
    let init = unsafe { &mut *arg.cast::<Init>() };
    let (stdio, turns, channel) = unsafe { std::mem::ManuallyDrop::take(&mut init.given) };
    let (orders, scratch_bytes) = (init.orders, init.scratch_bytes);
    // A panic must not unwind into the helper's frames, which are not this stack's.
    let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        enter_run_namespace(scratch_bytes)
            .and_then(|()| run(orders, Some(stdio), turns, channel.as_ref()))
            .unwrap_or_else(|err| format!("{SETUP_FAILED}{err:#}\n"))
    }))
    .unwrap_or_else(|_| format!("{SETUP_FAILED}the run's init panicked\n"));
    init.report = Some(report);
    // SAFETY: everything of the init's own is dropped; the helper's destructors are not
    // the init's to run.
    unsafe { libc::_exit(0) }
}

/// The stack runs' inits run on (see [`run_in_namespaces`]): one at a time, so one for the
/// sandbox's life, with a page below it that no access may reach.
struct InitStack {
    base: *mut libc::c_void,
}

/// As large as a thread's: a run's init runs the helper's code.
const INIT_STACK_BYTES: usize = 8 << 20;
const GUARD_BYTES: usize = 64 << 10;

impl InitStack {
    fn new() -> anyhow::Result<InitStack> {
        // SAFETY: a new private mapping, nothing else's; its lowest part made inaccessible.
        unsafe {
            let base = libc::mmap(
                std::ptr::null_mut(),
                INIT_STACK_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return Err(std::io::Error::last_os_error()).context("cannot map a stack");
            }
            if libc::mprotect(base, GUARD_BYTES, libc::PROT_NONE) != 0 {
                return Err(std::io::Error::last_os_error()).context("cannot guard a stack");
            }
            Ok(InitStack { base })
        }
    }

    /// Where the stack begins: its end (it grows down), aligned as the ABI wants.
    fn top(&self) -> *mut libc::c_void {
        (self.base as usize + INIT_STACK_BYTES) as *mut libc::c_void
    }
}

impl Drop for InitStack {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, which no init uses any more.
        unsafe { libc::munmap(self.base, INIT_STACK_BYTES) };
    }
}

/// In the run's init: makes the run's mount namespace one where nothing the run mounts or
/// changes reaches the helper's, with a new tmpfs of `scratch_bytes` as the working
/// directory, a `/proc` of the run's pid namespace that shows its processes and nothing
/// of the machine, and the program's directory read-only.
fn enter_run_namespace(scratch_bytes: u64) -> anyhow::Result<()> {
    use nix::mount::mount;
    let none: Option<&str> = None;
    // Here, not once in the helper's namespace: in bubblewrap's nested user namespace only
    // the run's own mount namespace is the helper's to change.
    mount(none, "/", none, MsFlags::MS_REC | MsFlags::MS_PRIVATE, none)
        .context("cannot make the run's mounts private")?;
    // Inodes too, not only bytes: empty files cost no byte but kernel memory each.
    let options = format!(
        "size={},nr_inodes={SCRATCH_INODES},mode=0777",
        scratch_bytes.max(4096)
    );
    mount(
        Some("tmpfs"),
        SCRATCH,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(options.as_str()),
    )
    .context("cannot mount the run's working directory")?;
    // `subset=pid` (Linux 5.8) leaves out the machine-wide files (/proc/stat's fork count,
    // /proc/loadavg, /proc/sys, ...), through which runs side by side could see each other.
    let proc_flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    mount(
        Some("proc"),
        "/proc",
        Some("proc"),
        proc_flags,
        Some("subset=pid"),
    )
    .or_else(|_| mount(Some("proc"), "/proc", Some("proc"), proc_flags, none))
    .context("cannot mount the run's /proc")?;
    mount(
        none,
        PROGRAM_DIR,
        none,
        MsFlags::MS_REMOUNT
            | MsFlags::MS_BIND
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        none,
    )
    .context("cannot make the program's directory read-only")?;
    std::env::set_current_dir(SCRATCH).context("cannot enter the run's working directory")
}

/// Places the run's given files, runs the program (stopping it between its `turns`),
/// ends every process it left, and collects the files it was to leave; the report for
/// clings.
fn run(
    orders: &Orders,
    stdio: Option<Stdio>,
    turns: Option<File>,
    channel: Option<&File>,
) -> anyhow::Result<String> {
    let rlimits = orders.rlimits;
    if let Some(channel) = channel {
        files::place(channel, Path::new("."), orders.uid)?;
    }
    let program = CString::new(orders.program.as_bytes()).context("bad program path")?;
    let args = std::iter::once(Ok(program.clone()))
        .chain(orders.args.iter().map(|arg| CString::new(arg.as_bytes())))
        .collect::<Result<Vec<CString>, _>>()
        .context("bad program argument")?;
    let env = orders
        .env
        .iter()
        .map(|var| CString::new(var.as_bytes()))
        .collect::<Result<Vec<CString>, _>>()
        .context("bad environment variable")?;
    anyhow::ensure!(args.len() <= MAX_ARGS, "more than {MAX_ARGS} arguments");
    anyhow::ensure!(
        env.len() <= MAX_ARGS,
        "more than {MAX_ARGS} environment variables"
    );
    // The child says why exec failed on this pipe, which exec closes.
    let (exec_read, exec_write) =
        nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).context("cannot create a pipe")?;
    // The container tier's rules, and the pipe on which the program's process waits for
    // its own /proc to be added to them.
    #[cfg(target_os = "linux")]
    let confinement = match &orders.confine {
        Some(confine) => Some((
            confine.rules()?,
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).context("cannot create a pipe")?,
        )),
        None => None,
    };
    // The program's side of the rules, and the helper's, which adds the program's /proc.
    #[cfg(target_os = "linux")]
    let (program_rules, helper_rules) = match confinement {
        Some((rules, (wait, go))) => (Some((rules.program, wait)), Some((rules.helper, go))),
        None => (None, None),
    };
    let launch = Exec {
        exec_error_fd: exec_write.as_raw_fd(),
        program: &program,
        stdio: stdio.as_ref(),
        rlimits: &rlimits,
        uid: orders.uid,
        args: &args,
        env: &env,
        #[cfg(target_os = "linux")]
        confinement: program_rules,
    };
    let started = Instant::now();
    let child = launch
        .spawn()
        .context("cannot start the program's process")?;
    drop(exec_write);
    #[cfg(target_os = "linux")]
    if let Some((rules, go)) = helper_rules {
        // Unless its /proc was added, the program's process reads the end of the pipe, and
        // fails to start.
        if rules.allow_own_proc(child).is_ok() {
            let _ = File::from(go).write_all(b"g");
        }
    }
    // The program alone holds its stdin and stdout from now on: when it closes its stdout,
    // its reader sees the end at once (a referee ends a game so), and the end of its input
    // comes when the writer closes it, not when the helper ends.
    match stdio {
        Some(stdio) => drop(stdio),
        None => detach_stdio()?,
    }
    PROGRAM.store(child, Ordering::SeqCst);
    // Orphans come to the helper, as the sandbox's init or as a subreaper: reaped as they
    // end, they do not pile up as zombies that count against the process limit.
    let group = Group::new_in_reaper(Pid::from_raw(child));
    // Where no cgroup counts the run's memory, the helper does, while it waits.
    let memory_exceeded = std::cell::Cell::new(false);
    let mut past_limit = || {
        let me = std::process::id() as i32;
        let past = orders
            .memory_watch
            .is_some_and(|limit| procs::memory_below(me) > limit);
        memory_exceeded.set(past);
        past
    };
    let watch: Option<&mut dyn FnMut() -> bool> = match orders.memory_watch {
        Some(_) => Some(&mut past_limit),
        None => None,
    };
    let mut follow = follow_turns;
    let turns = turns
        .as_ref()
        .map(|turns| (turns, &mut follow as &mut dyn FnMut(&[u8])));
    let waited = group.wait_as_reaper(orders.wall_time, watch, turns);
    PROGRAM.store(0, Ordering::SeqCst);
    let (exit, timed_out) = waited.context("cannot wait for the program")?;
    end_descendants();
    if let Some(channel) = channel.filter(|_| !orders.collect.is_empty()) {
        let limit = rlimits.file_size().unwrap_or(u64::MAX);
        files::collect(channel, Path::new("."), &orders.collect, limit)?;
    }
    let mut exec_error = String::new();
    let _ = File::from(exec_read).read_to_string(&mut exec_error);
    if !exec_error.is_empty() {
        return Ok(exec_error);
    }
    Ok(Report {
        exit: Some(ExitReport {
            termination: exit.termination,
            cpu_time: exit.cpu_time,
            peak_memory_bytes: exit.peak_memory_bytes,
            elapsed: started.elapsed(),
            wall_timeout: timed_out.is_some(),
            running: timed_out == Some(Activity::Running),
            memory_exceeded: memory_exceeded.get(),
        }),
        exec_error: None,
    }
    .render())
}

/// In a battle player's run's init, which is its pid namespace's init: stops every other
/// process of the run (SIGSTOP, which none can catch) on `S`, lets them go on (SIGCONT)
/// on `C`, as clings says on the run's turn channel while the init waits. A stopped
/// process uses no CPU, so the player not to move takes nothing from the one that thinks.
fn follow_turns(orders: &[u8]) {
    // Only the last order counts: the run is as clings last said.
    let signal = match orders.last() {
        Some(b'S') => libc::SIGSTOP,
        _ => libc::SIGCONT,
    };
    // SAFETY: kill with plain integers; -1 is every process of the run's namespace but
    // this one.
    unsafe { libc::kill(-1, signal) };
}

/// A helper that runs one program shares its stdin and stdout with it: it puts /dev/null
/// in their place, keeping its stderr for its own last words.
fn detach_stdio() -> anyhow::Result<()> {
    let null = File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
        .context("cannot open /dev/null")?;
    for target in [libc::STDIN_FILENO, libc::STDOUT_FILENO] {
        // SAFETY: dup2 onto the helper's own standard descriptors, which nothing in it reads
        // or writes.
        if unsafe { libc::dup2(null.as_raw_fd(), target) } < 0 {
            return Err(std::io::Error::last_os_error())
                .context("cannot let go of the program's stdio");
        }
    }
    Ok(())
}

/// The program of a warm sandbox's run, copied in by the helper before the run (see
/// [`PROGRAM_DIR`]): readable and executable by the run's user, writable by
/// nobody. The copy is kept for the next run of the same build (a grading runs one program
/// on many cases), unless something touched it.
#[derive(Default)]
struct ProgramSlot {
    kept: Option<Kept>,
}

/// The build the copy was made from, and the copy as it was made.
struct Kept {
    build: Identity,
    copy: Identity,
}

/// The copy's identity, without following a link put in its place.
fn copy_identity() -> Option<Identity> {
    Identity::of_entry(Path::new(PROGRAM_FILE))
}

impl ProgramSlot {
    /// Puts `build` where the run's program runs from: the copy kept from the run before
    /// when it is of the same build (a copy that run changed is not kept: see
    /// [`ProgramSlot::tidy`]), else a new copy.
    fn fill(&mut self, build: File) -> anyhow::Result<()> {
        let identity = Identity::of(&build.metadata().context("cannot read the program")?);
        if self
            .kept
            .as_ref()
            .is_some_and(|kept| kept.build == identity)
        {
            return Ok(());
        }
        self.kept = None;
        anyhow::ensure!(
            empty_directory(Path::new(PROGRAM_DIR)),
            "cannot remove the program of the run before"
        );
        let mut copy = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o500)
            .open(PROGRAM_FILE)
            .context("cannot place the program")?;
        std::io::copy(&mut &build, &mut copy).context("cannot copy the program")?;
        copy.set_permissions(std::fs::Permissions::from_mode(0o555))
            .context("cannot make the program executable")?;
        drop(copy);
        let copy = copy_identity().context("the program's copy is gone")?;
        self.kept = Some(Kept {
            build: identity,
            copy,
        });
        Ok(())
    }

    /// After a run: removes whatever the run left beside its program, and the program's
    /// copy too if the run changed it; `false` when something could not be removed.
    fn tidy(&mut self) -> bool {
        let untouched = self
            .kept
            .as_ref()
            .is_some_and(|kept| copy_identity() == Some(kept.copy));
        if !untouched {
            self.kept = None;
        }
        clear(Path::new(PROGRAM_DIR), |entry| {
            untouched && entry == Path::new(PROGRAM_FILE)
        })
    }
}

/// Empties the scratch directory for the next run; `false` when something could not be
/// removed (a directory the program made unreadable to the helper).
fn empty_directory(dir: &Path) -> bool {
    clear(dir, |_| false)
}

/// Removes everything in `dir` but the entries `kept` names, files and directories with
/// all in them; `false` when something could not be removed.
fn clear(dir: &Path, kept: impl Fn(&Path) -> bool) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut clean = true;
    for entry in entries {
        let removed = entry.and_then(|entry| match entry.file_type()?.is_dir() {
            _ if kept(&entry.path()) => Ok(()),
            true => std::fs::remove_dir_all(entry.path()),
            false => std::fs::remove_file(entry.path()),
        });
        clean &= removed.is_ok();
    }
    clean
}

/// Sends one message on a warm sandbox's socket.
fn send(socket: &OwnedFd, text: &str) -> anyhow::Result<()> {
    nix::sys::socket::send(
        socket.as_raw_fd(),
        text.as_bytes(),
        nix::sys::socket::MsgFlags::empty(),
    )
    .context("cannot answer clings")?;
    Ok(())
}

/// The next run's message and descriptors; `None` when clings closed the socket.
fn receive<'a>(
    socket: &OwnedFd,
    buffer: &'a mut [u8],
) -> anyhow::Result<Option<(&'a [u8], Vec<OwnedFd>)>> {
    use nix::sys::socket::{ControlMessageOwned, MsgFlags, recvmsg};
    let mut space = nix::cmsg_space!([RawFd; MAX_FDS]);
    let mut iov = [std::io::IoSliceMut::new(buffer)];
    let message = recvmsg::<()>(
        socket.as_raw_fd(),
        &mut iov,
        Some(&mut space),
        MsgFlags::MSG_CMSG_CLOEXEC,
    )
    .context("cannot read clings' orders")?;
    let mut fds = Vec::new();
    for control in message.cmsgs().context("cannot read clings' orders")? {
        if let ControlMessageOwned::ScmRights(received) = control {
            // SAFETY: the kernel just gave this process these descriptors.
            fds.extend(
                received
                    .into_iter()
                    .map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
            );
        }
    }
    let length = message.bytes;
    anyhow::ensure!(
        !message
            .flags
            .intersects(MsgFlags::MSG_TRUNC | MsgFlags::MSG_CTRUNC),
        "clings' orders were cut"
    );
    if length == 0 && fds.is_empty() {
        return Ok(None);
    }
    Ok(Some((&buffer[..length], fds)))
}

/// Ends whatever is left of the run once the program has ended: with a pid namespace,
/// every process the program left in it; without one, whatever came to the helper as its
/// subreaper. A killed process's own children come to the helper in turn, so this goes
/// on until it has no child left.
fn end_descendants() {
    let me = std::process::id() as i32;
    loop {
        for child in procs::children_of(me) {
            // SAFETY: kill takes plain integers; the child is not reaped yet, so its id
            // cannot name another process.
            unsafe { libc::kill(child, libc::SIGKILL) };
        }
        // SAFETY: reaping children of this process; no status is wanted.
        let reaped = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
        match reaped {
            0 => std::thread::sleep(Duration::from_millis(1)),
            // ECHILD: no child left.
            ..0 if std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) => return,
            _ => {}
        }
    }
}

/// Makes the program, and every process it starts, what the OOM killer picks first when
/// the run's cgroup runs out of memory: never the helper or bubblewrap, whose end would
/// leave the run without a verdict (seen as "the sandbox did not run" with many hogs).
/// Raising one's own score needs no privilege; a failure only leaves the default.
///
/// SAFETY: async-signal-safe system calls only, for the child of a fork.
unsafe fn prefer_for_oom_kill() {
    const PATH: &[u8] = b"/proc/self/oom_score_adj\0";
    const MOST: &[u8] = b"1000";
    // SAFETY: a NUL-terminated path and a buffer we own.
    unsafe {
        let fd = libc::open(PATH.as_ptr().cast(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd >= 0 {
            libc::write(fd, MOST.as_ptr().cast(), MOST.len());
            libc::close(fd);
        }
    }
}

/// What the forked child needs to become the program, prepared before the fork.
struct Exec<'a> {
    exec_error_fd: RawFd,
    program: &'a CStr,
    stdio: Option<&'a Stdio>,
    rlimits: &'a Rlimits,
    uid: Option<u32>,
    args: &'a [CString],
    env: &'a [CString],
    /// The container tier's Landlock rules, made before the fork, and the pipe that says
    /// when the helper has added the program's own /proc to them.
    #[cfg(target_os = "linux")]
    confinement: Option<(::landlock::RulesetCreated, OwnedFd)>,
}

/// The stack the program's process runs on until it execs, when it shares the helper's
/// memory: enough for [`Exec::become_program`]'s argument arrays and system calls.
#[cfg(target_os = "linux")]
const SPAWN_STACK_BYTES: usize = 256 * 1024;

impl Exec<'_> {
    /// Starts the program's process; its pid.
    ///
    /// Where nothing is to be handed to the child by the helper once it exists (all but
    /// the container tier's Landlock confinement), the child shares the helper's memory
    /// and the helper waits until it has exec'd, as `posix_spawn` does: no copy of the
    /// helper's page tables to make, fault in again and take down at exec, which cost each
    /// run about as much as the lesson's programs take to run. What the child does before
    /// exec is system calls on memory prepared here, and its own stack.
    fn spawn(self) -> std::io::Result<libc::pid_t> {
        #[cfg(target_os = "linux")]
        if self.confinement.is_none() {
            return self.spawn_sharing_memory();
        }
        // SAFETY: the helper has one thread, so the child may do anything before exec; it
        // only makes system calls anyway.
        match unsafe { libc::fork() } {
            ..0 => Err(std::io::Error::last_os_error()),
            // SAFETY: in the child, just before exec.
            0 => unsafe { self.become_program() },
            child => Ok(child),
        }
    }

    /// `clone(CLONE_VM | CLONE_VFORK)` onto a stack of its own, every signal blocked until
    /// the child has set every handler back to the default: no handler of the helper's
    /// may run in the child, on the helper's memory.
    #[cfg(target_os = "linux")]
    fn spawn_sharing_memory(self) -> std::io::Result<libc::pid_t> {
        struct Start<'a> {
            exec: std::mem::ManuallyDrop<Exec<'a>>,
            mask: libc::sigset_t,
        }
        extern "C" fn begin(arg: *mut libc::c_void) -> libc::c_int {
            // SAFETY: `arg` is the `Start` below, alive until this process execs or ends
            // (the helper is suspended till then); taken once.
            unsafe {
                let start = &mut *arg.cast::<Start>();
                let mut action: libc::sigaction = std::mem::zeroed();
                for signal in 1..libc::SIGRTMAX() {
                    if libc::sigaction(signal, std::ptr::null(), &mut action) == 0
                        && action.sa_sigaction != libc::SIG_DFL
                        && action.sa_sigaction != libc::SIG_IGN
                    {
                        action.sa_sigaction = libc::SIG_DFL;
                        libc::sigaction(signal, &action, std::ptr::null_mut());
                    }
                }
                libc::pthread_sigmask(libc::SIG_SETMASK, &start.mask, std::ptr::null_mut());
                std::mem::ManuallyDrop::take(&mut start.exec).become_program()
            }
        }
        let mut stack = vec![0u8; SPAWN_STACK_BYTES];
        // SAFETY: a zeroed sigset_t is a valid argument to sigemptyset/sigfillset.
        let mut start = Start {
            exec: std::mem::ManuallyDrop::new(self),
            mask: unsafe { std::mem::zeroed() },
        };
        // SAFETY: the stack outlives the child's use of it (CLONE_VFORK: clone returns once
        // the child has exec'd or ended), grows down from its 16-byte aligned end, and the
        // signal masks are plain values.
        unsafe {
            let mut all: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut start.mask);
            let top = stack.as_mut_ptr().add(SPAWN_STACK_BYTES) as usize & !15;
            let child = libc::clone(
                begin,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (&raw mut start).cast(),
            );
            let error = std::io::Error::last_os_error();
            libc::pthread_sigmask(libc::SIG_SETMASK, &start.mask, std::ptr::null_mut());
            drop(stack);
            match child {
                ..0 => Err(error),
                child => Ok(child),
            }
        }
    }

    /// In the forked child: the run's stdin, stdout, stderr and cgroups (a warm sandbox's
    /// run), its own session and process group (inside the pid namespace, so the program
    /// sees a session of its own, not one led from outside), no other inherited
    /// descriptor, the run's user, its confinement, the limits, then exec.
    ///
    /// SAFETY: only async-signal-safe calls, as the child of a fork, which may share the
    /// helper's memory: nothing here allocates, frees or takes a lock.
    unsafe fn become_program(self) -> ! {
        let exec_error_fd = self.exec_error_fd;
        let fail = |what: i32| -> ! {
            let errno = std::io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(what);
            let mut line = [0u8; 32];
            let text = format_errno(&mut line, errno);
            // SAFETY: writing a buffer we own to a descriptor we own, then leaving.
            unsafe {
                libc::write(exec_error_fd, text.as_ptr().cast(), text.len());
                libc::_exit(127)
            }
        };
        // SAFETY: plain system calls on this process.
        unsafe {
            if let Some(stdio) = self.stdio {
                for (target, fd) in stdio.fds.iter().enumerate() {
                    if libc::dup2(fd.as_raw_fd(), target as RawFd) < 0 {
                        fail(libc::EBADF);
                    }
                }
                // Writing "0" moves the writer (one thread, forked), as root before the switch.
                for procs in &stdio.cgroups {
                    if libc::write(procs.as_raw_fd(), b"0".as_ptr().cast(), 1) != 1 {
                        fail(libc::EIO);
                    }
                }
            }
            libc::setsid();
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            prefer_for_oom_kill();
            // By their system calls: glibc's wrappers would ask every thread the helper ever
            // had to change too, and this process is one thread, whether it shares the
            // helper's memory or not.
            if let Some(uid) = self.uid
                && (libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) != 0
                    || libc::syscall(libc::SYS_setgid, uid) != 0
                    || libc::syscall(libc::SYS_setuid, uid) != 0)
            {
                fail(libc::EPERM);
            }
            if !drop_capabilities() {
                fail(libc::EPERM);
            }
        }
        // After what needs /proc written (the OOM score) and before the ruleset's
        // descriptor goes with the rest; Landlock itself missing now is a failure, never
        // a run without it.
        #[cfg(target_os = "linux")]
        if let Some((ruleset, go)) = self.confinement {
            let mut said = 0u8;
            // SAFETY: reading one byte into a buffer we own.
            let read = unsafe { libc::read(go.as_raw_fd(), (&raw mut said).cast(), 1) };
            if read != 1 || !super::container::enforce(ruleset) {
                fail(libc::EPERM);
            }
        }
        // SAFETY: closing descriptors this child does not use.
        unsafe { close_from(3, exec_error_fd) };
        if self.rlimits.apply().is_err() {
            fail(libc::EINVAL);
        }
        // SAFETY: system calls on static memory; the program and its children inherit it.
        if super::seccomp::Filter::new().is_some_and(|filter| unsafe { filter.install() }.is_err())
        {
            fail(libc::EPERM);
        }
        let mut argv = [std::ptr::null(); MAX_ARGS + 1];
        for (slot, arg) in argv.iter_mut().zip(self.args.iter().take(MAX_ARGS)) {
            *slot = arg.as_ptr();
        }
        let mut envp = [std::ptr::null(); MAX_ARGS + 1];
        for (slot, var) in envp.iter_mut().zip(self.env.iter().take(MAX_ARGS)) {
            *slot = var.as_ptr();
        }
        // A copy of the program that clings has just written may still be open for writing
        // in another clings thread's child until that child execs (ETXTBSY): wait for it.
        for _ in 0..1000 {
            // SAFETY: argv and envp are null-terminated arrays of valid C strings.
            unsafe { libc::execve(self.program.as_ptr(), argv.as_ptr(), envp.as_ptr()) };
            if std::io::Error::last_os_error().raw_os_error() != Some(libc::ETXTBSY) {
                break;
            }
            let pause = libc::timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            };
            // SAFETY: nanosleep reads the timespec it is given.
            unsafe { libc::nanosleep(&pause, std::ptr::null_mut()) };
        }
        fail(libc::ENOEXEC)
    }
}

/// Gives up every capability, the ambient ones too: a warm sandbox's helper has
/// CAP_SYS_ADMIN (ambient, in a user namespace of bubblewrap's), and the program must
/// start with none, whatever its user.
///
/// SAFETY: only system calls; for the child of a fork.
#[cfg(target_os = "linux")]
unsafe fn drop_capabilities() -> bool {
    /// `struct __user_cap_header_struct` and `__user_cap_data_struct`, version 3.
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let none = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: prctl with integers; capset reads the structs we own.
    unsafe {
        let ambient = libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        );
        // EINVAL: a kernel before 4.3, without ambient capabilities.
        (ambient == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL))
            && libc::syscall(libc::SYS_capset, &header, none.as_ptr()) == 0
    }
}

/// SAFETY: nothing to do where there are no capabilities.
#[cfg(not(target_os = "linux"))]
unsafe fn drop_capabilities() -> bool {
    true
}

/// Closes every descriptor from `first` on but `keep`.
///
/// SAFETY: only system calls; for the child of a fork.
#[cfg(target_os = "linux")]
unsafe fn close_from(first: RawFd, keep: RawFd) {
    let (first, keep) = (first as libc::c_uint, keep as libc::c_uint);
    // By its system call: glibc has the wrapper only from 2.34, and the release binaries
    // link against glibc 2.17 (manylinux2014).
    // SAFETY: close_range takes plain integers.
    unsafe {
        if keep > first {
            libc::syscall(libc::SYS_close_range, first, keep - 1, 0);
        }
        libc::syscall(libc::SYS_close_range, keep + 1, libc::c_uint::MAX, 0);
    }
}

/// SAFETY: only system calls; for the child of a fork.
#[cfg(not(target_os = "linux"))]
unsafe fn close_from(first: RawFd, keep: RawFd) {
    // SAFETY: sysconf and close take plain integers.
    unsafe {
        let last = libc::sysconf(libc::_SC_OPEN_MAX).clamp(first as libc::c_long, 65536);
        for fd in first..last as RawFd {
            if fd != keep {
                libc::close(fd);
            }
        }
    }
}

/// The report of a failed exec, `{"exec_error":<errno>}\n` (see [`Report`]), without
/// allocating: the child of a fork may not.
fn format_errno(buffer: &mut [u8; 32], errno: i32) -> &[u8] {
    const PREFIX: &[u8] = b"{\"exec_error\":";
    buffer[..PREFIX.len()].copy_from_slice(PREFIX);
    let mut digits = [0u8; 10];
    let mut value = errno.unsigned_abs();
    let mut count = 0;
    loop {
        digits[count] = b'0' + (value % 10) as u8;
        count += 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    let mut end = PREFIX.len();
    for digit in digits[..count].iter().rev() {
        buffer[end] = *digit;
        end += 1;
    }
    buffer[end..end + 2].copy_from_slice(b"}\n");
    &buffer[..end + 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_round_trip_through_the_command_line() {
        let orders = Orders {
            rlimits: crate::sandbox::limits::tests::LIMITS.rlimits(16),
            uid: Some(1_800_000_123),
            wall_time: Duration::from_millis(2000),
            program: "/usr/bin/gcc".into(),
            args: vec!["-o".into(), "program".into(), "a b.c".into()],
            env: vec!["PATH=/usr/bin".into(), "A=b=c".into()],
            files: FileChannel::Inherited(9),
            turns: FileChannel::Inherited(10),
            collect: vec!["replay.txt".into()],
            confine: Some(Confinement {
                system: vec!["/usr/lib".into()],
                devices: vec!["/dev/null".into()],
                program: Some("/tmp/clings-run-x/.program".into()),
                workdir: "/tmp/clings-run-x/work".into(),
                read: Some("/tmp/clings-engine-x/pela".into()),
                keep: None,
            }),
            memory_watch: Some(256 << 20),
        };
        let args: Vec<OsString> = orders.to_args(7).into_iter().map(Into::into).collect();
        assert_eq!(
            Orders::from_message(&orders.to_message()).as_ref(),
            Some(&orders)
        );
        assert_eq!(Orders::from_args(&args), Some((7, orders)));
        let no_env = Orders {
            uid: None,
            env: Vec::new(),
            args: Vec::new(),
            files: FileChannel::Passed,
            turns: FileChannel::Passed,
            ..Orders::from_args(&args).unwrap().1
        };
        assert_eq!(Orders::from_message(&no_env.to_message()), Some(no_env));
        let no_files = Orders {
            files: FileChannel::None,
            collect: Vec::new(),
            ..Orders::from_args(&args).unwrap().1
        };
        assert_eq!(Orders::from_message(&no_files.to_message()), Some(no_files));
    }

    #[test]
    fn the_scratch_directory_is_emptied_of_everything() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = dir.path().join("scratch");
        std::fs::create_dir_all(scratch.join("deep/deeper")).unwrap();
        for file in [".hidden", "out.txt", "deep/deeper/x"] {
            std::fs::write(scratch.join(file), "left").unwrap();
        }
        // A link is removed, not what it leads to.
        let kept = dir.path().join("kept");
        std::fs::create_dir(&kept).unwrap();
        std::fs::write(kept.join("file"), "kept").unwrap();
        std::os::unix::fs::symlink(&kept, scratch.join("link")).unwrap();
        assert!(empty_directory(&scratch));
        assert_eq!(std::fs::read_dir(&scratch).unwrap().count(), 0);
        assert!(kept.join("file").exists());
        // What cannot be read cannot be emptied.
        assert!(!empty_directory(&dir.path().join("none")));
    }

    #[test]
    fn report_round_trips_and_a_silent_helper_reports_nothing() {
        let exit = ExitReport {
            termination: Termination::Signaled(24),
            cpu_time: Duration::from_micros(1_000_123),
            peak_memory_bytes: 4096,
            elapsed: Duration::from_micros(1_100_000),
            wall_timeout: true,
            running: true,
            memory_exceeded: true,
        };
        let report = Report {
            exit: Some(exit),
            exec_error: None,
        };
        assert_eq!(Report::parse(&report.render()), report);
        // Half a report is none.
        assert_eq!(Report::parse(&report.render()[..20]), Report::default());
        assert_eq!(Report::parse(""), Report::default());
        let mut buffer = [0u8; 32];
        assert_eq!(
            Report::parse(std::str::from_utf8(format_errno(&mut buffer, 13)).unwrap()).exec_error,
            Some(13)
        );
    }
}
