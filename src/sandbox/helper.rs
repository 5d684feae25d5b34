//! The helper: clings itself, started inside the sandbox in place of the student's program.
//! It sets the resource limits (inside the new namespaces, where RLIMIT_NPROC counts only
//! the sandbox's processes), drops to the run's own user when clings runs as root, starts
//! the program in its own process group, enforces the wall time, and reports exactly how
//! the program ended on a pipe. bubblewrap alone reports a death by signal as an exit
//! status of 128 + the signal, the same as `exit(139)`.

use std::ffi::{CString, OsString};
use std::fs::File;
use std::io::Write;
use std::os::fd::{FromRawFd, RawFd};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use std::sync::atomic::{AtomicI32, Ordering};

use nix::unistd::Pid;

use super::Termination;
use super::limits::Rlimits;
use super::process::{Exit, Group};
use super::{procs, seccomp};

/// The most arguments a program is given (the compiler's flags and files).
const MAX_ARGS: usize = 256;

/// The first argument that turns clings into the helper; never typed by a person.
pub const FLAG: &str = "--clings-sandbox-helper";

/// What the helper is asked to do, passed on its command line.
#[derive(Debug, PartialEq)]
pub struct Orders {
    /// Where the report goes; inherited from clings through bubblewrap.
    pub status_fd: RawFd,
    pub rlimits: String,
    /// The user to run the program as (only when clings runs as root).
    pub uid: Option<u32>,
    pub wall_time: Duration,
    pub program: String,
    /// The program's arguments after its name.
    pub args: Vec<String>,
}

impl Orders {
    pub fn to_args(&self) -> Vec<String> {
        let uid = self.uid.map_or(String::new(), |uid| uid.to_string());
        let mut args = vec![
            FLAG.to_string(),
            format!("{}", self.status_fd),
            self.rlimits.clone(),
            uid,
            format!("{}", self.wall_time.as_millis()),
            self.program.clone(),
        ];
        args.extend(self.args.iter().cloned());
        args
    }

    fn from_args(args: &[OsString]) -> Option<Orders> {
        let text = |index: usize| args.get(index).and_then(|arg| arg.to_str());
        if args.len() < 6 || text(0)? != FLAG {
            return None;
        }
        let uid = match text(3)? {
            "" => None,
            uid => Some(uid.parse().ok()?),
        };
        Some(Orders {
            status_fd: text(1)?.parse().ok()?,
            rlimits: text(2)?.to_string(),
            uid,
            wall_time: Duration::from_millis(text(4)?.parse().ok()?),
            program: text(5)?.to_string(),
            args: (6..args.len())
                .map(|index| text(index).map(String::from))
                .collect::<Option<_>>()?,
        })
    }
}

/// How the program ended, as the helper saw it.
#[derive(Debug, Default, PartialEq)]
pub struct Report {
    pub exit: Option<ExitReport>,
    /// errno of a failed exec: the program never started.
    pub exec_error: Option<i32>,
}

#[derive(Debug, PartialEq)]
pub struct ExitReport {
    pub termination: Termination,
    pub cpu_time: Duration,
    pub peak_memory_bytes: u64,
    pub elapsed: Duration,
    /// The helper stopped the program at the wall-time limit.
    pub wall_timeout: bool,
}

impl Report {
    /// Reads what the helper wrote; a helper that was killed wrote nothing.
    pub fn parse(text: &str) -> Report {
        let mut report = Report::default();
        for line in text.lines() {
            if let Some(errno) = line.strip_prefix("exec_error=") {
                report.exec_error = errno.parse().ok();
            } else if let Some(fields) = line.strip_prefix("ended ") {
                report.exit = ExitReport::parse(fields);
            }
        }
        report
    }
}

impl ExitReport {
    fn render(&self) -> String {
        let (kind, value) = match self.termination {
            Termination::Exited(code) => ("exit", code),
            Termination::Signaled(signal) => ("signal", signal),
        };
        format!(
            "ended {kind}={value} cpu_us={} peak_bytes={} elapsed_us={} wall_timeout={}\n",
            self.cpu_time.as_micros(),
            self.peak_memory_bytes,
            self.elapsed.as_micros(),
            u8::from(self.wall_timeout)
        )
    }

    fn parse(fields: &str) -> Option<ExitReport> {
        let field = |name: &str| {
            fields
                .split(' ')
                .find_map(|field| field.strip_prefix(name)?.strip_prefix('='))
        };
        let termination = match (field("exit"), field("signal")) {
            (Some(code), _) => Termination::Exited(code.parse().ok()?),
            (None, Some(signal)) => Termination::Signaled(signal.parse().ok()?),
            (None, None) => return None,
        };
        Some(ExitReport {
            termination,
            cpu_time: Duration::from_micros(field("cpu_us")?.parse().ok()?),
            peak_memory_bytes: field("peak_bytes")?.parse().ok()?,
            elapsed: Duration::from_micros(field("elapsed_us")?.parse().ok()?),
            wall_timeout: field("wall_timeout")? == "1",
        })
    }
}

/// Runs the helper when clings was started as one; `None` for a normal start.
pub fn main_if_helper() -> Option<ExitCode> {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_none_or(|first| first != FLAG) {
        return None;
    }
    let Some(orders) = Orders::from_args(&args) else {
        eprintln!("clings sandbox helper: bad arguments {args:?}");
        return Some(ExitCode::from(125));
    };
    Some(match supervise(&orders) {
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

fn supervise(orders: &Orders) -> anyhow::Result<()> {
    use anyhow::Context;
    let init = std::process::id() == 1;
    let rlimits = Rlimits::decode(&orders.rlimits).context("bad resource limits")?;
    let program = CString::new(orders.program.as_bytes()).context("bad program path")?;
    let args = std::iter::once(Ok(program.clone()))
        .chain(orders.args.iter().map(|arg| CString::new(arg.as_bytes())))
        .collect::<Result<Vec<CString>, _>>()
        .context("bad program argument")?;
    anyhow::ensure!(args.len() <= MAX_ARGS, "more than {MAX_ARGS} arguments");
    // SAFETY: the fd was opened for the helper by clings and is used only here.
    let mut status = unsafe { File::from_raw_fd(orders.status_fd) };
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
    let started = Instant::now();
    // SAFETY: the helper has one thread, so the child may do anything before exec; it only
    // makes system calls anyway.
    let child = unsafe { libc::fork() };
    if child < 0 {
        return Err(std::io::Error::last_os_error()).context("cannot fork");
    }
    if child == 0 {
        // SAFETY: in the child, just before exec.
        unsafe { become_program(orders, &rlimits, &args) };
    }
    PROGRAM.store(child, Ordering::SeqCst);
    let group = if init {
        Group::new_in_init(Pid::from_raw(child))
    } else {
        Group::new(Pid::from_raw(child))
    };
    let waited = group.wait(Some(orders.wall_time));
    PROGRAM.store(0, Ordering::SeqCst);
    let (exit, wall_timeout): (Exit, bool) = waited.context("cannot wait for the program")?;
    end_descendants();
    let report = ExitReport {
        termination: exit.termination,
        cpu_time: exit.cpu_time,
        peak_memory_bytes: exit.peak_memory_bytes,
        elapsed: started.elapsed(),
        wall_timeout,
    };
    status
        .write_all(report.render().as_bytes())
        .context("cannot report the program's status")?;
    Ok(())
}

/// Kills and reaps every process left below the helper: in a sandbox, whatever the
/// program left in its pid namespace; without one, whatever came to the helper as its
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

/// In the forked child: its own session and process group (inside the pid namespace, so
/// the program sees a session of its own, not one led from outside), no inherited descriptors but stdin, stdout,
/// stderr and the status pipe (closed by exec), the run's user, the limits, then exec.
///
/// SAFETY: only async-signal-safe calls, as the child of a fork.
unsafe fn become_program(orders: &Orders, rlimits: &Rlimits, args: &[CString]) -> ! {
    let fail = |what: i32| -> ! {
        let errno = std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(what);
        let mut line = [0u8; 32];
        let text = format_errno(&mut line, errno);
        // SAFETY: writing a buffer we own to a descriptor we own, then leaving.
        unsafe {
            libc::write(orders.status_fd, text.as_ptr().cast(), text.len());
            libc::_exit(127)
        }
    };
    // SAFETY: plain system calls on this process.
    unsafe {
        libc::setsid();
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
        libc::fcntl(orders.status_fd, libc::F_SETFD, libc::FD_CLOEXEC);
        close_from(3, orders.status_fd);
        prefer_for_oom_kill();
        if let Some(uid) = orders.uid
            && (libc::setgroups(0, std::ptr::null()) != 0
                || libc::setgid(uid) != 0
                || libc::setuid(uid) != 0)
        {
            fail(libc::EPERM);
        }
    }
    if rlimits.apply().is_err() {
        fail(libc::EINVAL);
    }
    // SAFETY: system calls on static memory; the program and its children inherit it.
    if super::seccomp::Filter::new().is_some_and(|filter| unsafe { filter.install() }.is_err()) {
        fail(libc::EPERM);
    }
    let mut argv = [std::ptr::null(); MAX_ARGS + 1];
    for (slot, arg) in argv.iter_mut().zip(args.iter().take(MAX_ARGS)) {
        *slot = arg.as_ptr();
    }
    // A copy of the program that clings has just written may still be open for writing in
    // another clings thread's child until that child execs (ETXTBSY): wait for it.
    for _ in 0..1000 {
        // SAFETY: argv is a null-terminated array of valid C strings; environ is inherited.
        unsafe { libc::execv(args[0].as_ptr(), argv.as_ptr()) };
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

/// Closes every descriptor from `first` on but `keep`.
///
/// SAFETY: only system calls; for the child of a fork.
#[cfg(target_os = "linux")]
unsafe fn close_from(first: RawFd, keep: RawFd) {
    let (first, keep) = (first as libc::c_uint, keep as libc::c_uint);
    // SAFETY: close_range takes plain integers.
    unsafe {
        if keep > first {
            libc::close_range(first, keep - 1, 0);
        }
        libc::close_range(keep + 1, libc::c_uint::MAX, 0);
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

/// `exec_error=<errno>\n` without allocating.
fn format_errno(buffer: &mut [u8; 32], errno: i32) -> &[u8] {
    const PREFIX: &[u8] = b"exec_error=";
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
    buffer[end] = b'\n';
    &buffer[..=end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_round_trip_through_the_command_line() {
        let orders = Orders {
            status_fd: 7,
            rlimits: "cpu=1/2,nproc=16/16".into(),
            uid: Some(1_800_000_123),
            wall_time: Duration::from_millis(2000),
            program: "/usr/bin/gcc".into(),
            args: vec!["-o".into(), "program".into(), "a b.c".into()],
        };
        let args: Vec<OsString> = orders.to_args().into_iter().map(Into::into).collect();
        assert_eq!(Orders::from_args(&args), Some(orders));
    }

    #[test]
    fn report_round_trips_and_a_silent_helper_reports_nothing() {
        let exit = ExitReport {
            termination: Termination::Signaled(24),
            cpu_time: Duration::from_micros(1_000_123),
            peak_memory_bytes: 4096,
            elapsed: Duration::from_micros(1_100_000),
            wall_timeout: false,
        };
        let report = Report::parse(&exit.render());
        assert_eq!(report.exit, Some(exit));
        assert_eq!(Report::parse(""), Report::default());
        let mut buffer = [0u8; 32];
        assert_eq!(
            Report::parse(std::str::from_utf8(format_errno(&mut buffer, 13)).unwrap()).exec_error,
            Some(13)
        );
    }
}
