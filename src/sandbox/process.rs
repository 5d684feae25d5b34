//! A child process that leads its own process group: killed whole, waited for with a
//! time limit, and reaped only after the group is killed, so a kill never reaches a
//! process that reused the group's id.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::Termination;

/// How a process ended, with what it used.
#[derive(Clone, Copy, Debug)]
pub struct Exit {
    pub termination: Termination,
    /// User plus system time of the process and of the children it waited for.
    pub cpu_time: Duration,
    /// The largest resident set of the process or of any child it waited for.
    pub peak_memory_bytes: u64,
}

pub struct Group {
    leader: Pid,
    /// Set once the leader is reaped: from then on its id may name another process.
    reaped: Mutex<bool>,
    /// Whether this process is a reaper (a pid namespace's init, or a subreaper), whose
    /// children other than the leader are orphans it inherited and must reap.
    reaper: bool,
    /// What stops the group: SIGKILL, or SIGTERM for a leader that must end the rest of
    /// the run itself before it goes (the helper of a run without isolation).
    stop: Signal,
}

/// How long a group stopped by SIGTERM has to end before it gets SIGKILL.
const TERM_PATIENCE: Duration = Duration::from_secs(1);

/// How often a watched group's watch is asked (see [`Group::wait_as_reaper`]).
pub const WATCH_INTERVAL: Duration = Duration::from_millis(2);

impl Group {
    /// `leader` must be a child of this process that leads its own process group.
    pub fn new(leader: Pid) -> Group {
        Group {
            leader,
            reaped: Mutex::new(false),
            reaper: false,
            stop: Signal::SIGKILL,
        }
    }

    /// The same, for a leader that is stopped by SIGTERM (and by SIGKILL only if it has
    /// not ended [`TERM_PATIENCE`] later).
    pub fn new_terminated(leader: Pid) -> Group {
        Group {
            stop: Signal::SIGTERM,
            ..Group::new(leader)
        }
    }

    /// The same, for a reaper (a pid namespace's init, or a subreaper): while it waits for
    /// the leader, it reaps the orphans that come to it, so that they do not stay zombies
    /// (and count against the process limit).
    pub fn new_in_reaper(leader: Pid) -> Group {
        Group {
            reaper: true,
            ..Group::new(leader)
        }
    }

    pub fn leader(&self) -> Pid {
        self.leader
    }

    /// Stops every process still in the group.
    pub fn kill(&self) {
        self.signal(self.stop);
    }

    fn signal(&self, signal: Signal) {
        let reaped = self.reaped.lock().expect("group lock");
        if !*reaped {
            // ESRCH (nothing left to kill) is the usual answer and not an error.
            let _ = killpg(self.leader, signal);
        }
    }

    /// Waits for the leader to end, at most `limit` (then the group is killed, and what
    /// the leader was doing then is said); kills whatever is left in the group, and reaps
    /// the leader.
    pub fn wait(&self, limit: Option<Duration>) -> io::Result<(Exit, Option<Activity>)> {
        let (ended_tx, ended_rx) = mpsc::channel();
        let (leader, reaper) = (self.leader, self.reaper);
        thread::spawn(move || {
            let _ = ended_tx.send(wait_without_reaping(leader, reaper));
        });
        let ended = match limit {
            None => ended_rx.recv().map_err(io::Error::other)?,
            Some(limit) => match ended_rx.recv_timeout(limit) {
                Ok(ended) => ended,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::other("the waiting thread is gone"));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let doing = Activity::of(self.leader);
                    self.kill();
                    let ended = match ended_rx.recv_timeout(TERM_PATIENCE) {
                        Ok(ended) => ended,
                        Err(_) => {
                            self.signal(Signal::SIGKILL);
                            ended_rx.recv().map_err(io::Error::other)?
                        }
                    };
                    ended?;
                    return self.reap_leader(Some(doing));
                }
            },
        };
        ended?;
        self.reap_leader(None)
    }

    /// [`Group::wait`] for a reaper whose group is stopped by SIGKILL, on this thread
    /// alone: a run's init shares the helper's memory, and must start no thread. SIGCHLD,
    /// blocked on this thread, is read from a signalfd. `watch` is asked every
    /// [`WATCH_INTERVAL`] whether to stop the group now (its memory is past the run's
    /// limit): then it is killed, and the caller, who knows why, is told of no timeout.
    /// What `turns` says, until it ends, is handed to its handler as it comes.
    pub fn wait_as_reaper(
        &self,
        limit: Duration,
        mut watch: Option<&mut dyn FnMut() -> bool>,
        mut turns: Option<Turns>,
    ) -> io::Result<(Exit, Option<Activity>)> {
        let signals = ChildSignals::block()?;
        let deadline = Instant::now() + limit;
        let mut orders = [0u8; 64];
        let doing = loop {
            if leader_ended(self.leader)? {
                break None;
            }
            let watched_out = watch.as_mut().is_some_and(|watch| watch());
            let now = Instant::now();
            if watched_out || now >= deadline {
                let doing = (!watched_out).then(|| Activity::of(self.leader));
                self.signal(Signal::SIGKILL);
                wait_without_reaping(self.leader, true)?;
                break doing;
            }
            let left = deadline - now;
            let slice = if watch.is_some() {
                left.min(WATCH_INTERVAL)
            } else {
                left
            };
            let turns_fd = turns.as_ref().map(|(file, _)| file.as_fd());
            let (child, turn) = signals.poll(turns_fd, slice)?;
            if turn && let Some((file, on_turn)) = turns.as_mut() {
                match (&**file).read(&mut orders) {
                    Ok(count @ 1..) => on_turn(&orders[..count]),
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                    // Its end, or a channel that cannot be read: no more turns.
                    _ => turns = None,
                }
            }
            if child {
                signals.drain();
            }
        };
        self.reap_leader(doing)
    }

    /// Kills what is left of the group, whose leader has ended, and reaps the leader.
    fn reap_leader(&self, doing: Option<Activity>) -> io::Result<(Exit, Option<Activity>)> {
        let mut reaped = self.reaped.lock().expect("group lock");
        // The leader is a zombie now: its id, and so the group's, cannot be reused yet.
        let _ = killpg(self.leader, Signal::SIGKILL);
        let exit = reap(self.leader)?;
        *reaped = true;
        Ok((exit, doing))
    }
}

/// A battle player's turn channel, and what to do with each order read from it.
pub type Turns<'a> = (&'a File, &'a mut dyn FnMut(&[u8]));

/// SIGCHLD blocked on this thread (as it was before, once dropped), and read from a
/// signalfd instead.
struct ChildSignals {
    fd: OwnedFd,
    before: libc::sigset_t,
}

impl ChildSignals {
    fn block() -> io::Result<ChildSignals> {
        // SAFETY: sigset_t values filled by sigemptyset/sigaddset, and a mask change of this
        // thread alone; signalfd makes a new descriptor, owned from here on.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGCHLD);
            let mut before: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut before);
            let fd = libc::signalfd(-1, &set, libc::SFD_NONBLOCK | libc::SFD_CLOEXEC);
            if fd < 0 {
                let err = io::Error::last_os_error();
                libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
                return Err(err);
            }
            Ok(ChildSignals {
                fd: OwnedFd::from_raw_fd(fd),
                before,
            })
        }
    }

    /// Waits at most `limit` for a child to end or `turns` to be readable (or closed);
    /// which of the two happened.
    fn poll(&self, turns: Option<BorrowedFd>, limit: Duration) -> io::Result<(bool, bool)> {
        let mut fds = [
            libc::pollfd {
                fd: self.fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: turns.map_or(-1, |fd| fd.as_raw_fd()),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let millis = limit.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
        // SAFETY: poll writes only the revents of the array it is given.
        if unsafe { libc::poll(fds.as_mut_ptr(), 2, millis) } < 0 {
            let err = io::Error::last_os_error();
            return match err.kind() {
                io::ErrorKind::Interrupted => Ok((false, false)),
                _ => Err(err),
            };
        }
        Ok((fds[0].revents != 0, fds[1].revents != 0))
    }

    /// Reads the signals that came, so that the next poll waits for new ones.
    fn drain(&self) {
        let mut info = [0u8; 128 * 8];
        // SAFETY: reading into a buffer we own from a non-blocking descriptor we own.
        while unsafe { libc::read(self.fd.as_raw_fd(), info.as_mut_ptr().cast(), info.len()) } > 0 {
        }
    }
}

impl Drop for ChildSignals {
    fn drop(&mut self) {
        // SAFETY: restores this thread's own mask as it was.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.before, std::ptr::null_mut()) };
    }
}

/// Whether `leader` has ended (left a zombie), reaping the orphans that ended meanwhile,
/// without waiting.
fn leader_ended(leader: Pid) -> io::Result<bool> {
    loop {
        // SAFETY: an all-zero siginfo is valid; waitid only writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let flags = libc::WEXITED | libc::WNOWAIT | libc::WNOHANG;
        // SAFETY: waitid only writes into the siginfo it is given.
        if unsafe { libc::waitid(libc::P_ALL, 0, &mut info, flags) } != 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        // SAFETY: waitid filled in the pid of the child that ended, or 0 for none.
        match unsafe { info.si_pid() } {
            0 => return Ok(false),
            ended if ended == leader.as_raw() => return Ok(true),
            // An orphan this reaper inherited: nobody else will reap it.
            // SAFETY: reaping a child that has ended; no status is wanted.
            orphan => unsafe {
                libc::waitpid(orphan, std::ptr::null_mut(), 0);
            },
        }
    }
}

/// What a process stopped at its time limit was doing: the evidence of a loop, which a
/// share of CPU time is not on a machine whose processors other work keeps busy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// On a processor, or waiting for one: a loop.
    Running,
    /// Asleep, waiting, stopped, or gone.
    Idle,
}

impl Activity {
    /// From its state in `/proc/PID/stat` (the letter after the command's closing `)`).
    fn of(pid: Pid) -> Activity {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rfind(')')
            .and_then(|end| stat[end + 1..].split_whitespace().next());
        match state {
            Some("R") => Activity::Running,
            _ => Activity::Idle,
        }
    }
}

/// Blocks until `pid` has ended, leaving it a zombie; a reaper reaps any other child that
/// ends meanwhile.
fn wait_without_reaping(pid: Pid, reaper: bool) -> io::Result<()> {
    let (which, id) = match reaper {
        true => (libc::P_ALL, 0),
        false => (libc::P_PID, pid.as_raw() as libc::id_t),
    };
    loop {
        // SAFETY: an all-zero siginfo is valid; waitid only writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid only writes into the siginfo it is given.
        let result = unsafe { libc::waitid(which, id, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if result == 0 {
            // SAFETY: waitid filled in the pid of the child that ended.
            let ended = unsafe { info.si_pid() };
            if ended == pid.as_raw() {
                return Ok(());
            }
            // An orphan this reaper inherited: nobody else will reap it.
            // SAFETY: reaping a child that has ended; no status is wanted.
            unsafe { libc::waitpid(ended, std::ptr::null_mut(), 0) };
            continue;
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Reaps `pid`, which has ended, with its status and resource usage.
pub fn reap(pid: Pid) -> io::Result<Exit> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value, and wait4 only writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4 writes only into `status` and `usage`, which outlive the call.
        let result = unsafe { libc::wait4(pid.as_raw(), &mut status, 0, &mut usage) };
        if result == pid.as_raw() {
            break;
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
    let termination = if libc::WIFEXITED(status) {
        Termination::Exited(libc::WEXITSTATUS(status))
    } else {
        Termination::Signaled(libc::WTERMSIG(status))
    };
    let time = |tv: libc::timeval| {
        Duration::from_secs(tv.tv_sec as u64) + Duration::from_micros(tv.tv_usec as u64)
    };
    Ok(Exit {
        termination,
        cpu_time: time(usage.ru_utime) + time(usage.ru_stime),
        // Linux counts ru_maxrss in KiB.
        peak_memory_bytes: usage.ru_maxrss.max(0) as u64 * 1024,
    })
}
