//! A child process that leads its own process group: killed whole, waited for with a
//! time limit, and reaped only after the group is killed, so a kill never reaches a
//! process that reused the group's id.

use std::io;
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

/// How often a watched group's watch is asked (see [`Group::wait_watched`]).
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
        self.wait_watched(limit, None)
    }

    /// [`Group::wait`], asking `watch` every [`WATCH_INTERVAL`] meanwhile whether to stop
    /// the group now (its memory is past the run's limit): then it is killed, and the
    /// caller, who knows why, is told of no timeout.
    pub fn wait_watched(
        &self,
        limit: Option<Duration>,
        mut watch: Option<&mut dyn FnMut() -> bool>,
    ) -> io::Result<(Exit, Option<Activity>)> {
        let (ended_tx, ended_rx) = mpsc::channel();
        let (leader, reaper) = (self.leader, self.reaper);
        thread::spawn(move || {
            let _ = ended_tx.send(wait_without_reaping(leader, reaper));
        });
        let deadline = limit.map(|limit| Instant::now() + limit);
        let mut timed_out = None;
        let ended = loop {
            let left = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
            let slice = match (&watch, left) {
                (Some(_), Some(left)) => left.min(WATCH_INTERVAL),
                (Some(_), None) => WATCH_INTERVAL,
                (None, Some(left)) => left,
                (None, None) => break ended_rx.recv().map_err(io::Error::other)?,
            };
            match ended_rx.recv_timeout(slice) {
                Ok(ended) => break ended,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::other("the waiting thread is gone"));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            let watched_out = watch.as_mut().is_some_and(|watch| watch());
            let late = deadline.is_some_and(|deadline| Instant::now() >= deadline);
            if !watched_out && !late {
                continue;
            }
            if !watched_out {
                timed_out = Some(Activity::of(self.leader));
            }
            self.kill();
            break match ended_rx.recv_timeout(TERM_PATIENCE) {
                Ok(ended) => ended,
                Err(_) => {
                    self.signal(Signal::SIGKILL);
                    ended_rx.recv().map_err(io::Error::other)?
                }
            };
        };
        ended?;
        let mut reaped = self.reaped.lock().expect("group lock");
        // The leader is a zombie now: its id, and so the group's, cannot be reused yet.
        let _ = killpg(self.leader, Signal::SIGKILL);
        let exit = reap(self.leader)?;
        *reaped = true;
        Ok((exit, timed_out))
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
