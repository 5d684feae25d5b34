//! When clings runs as root, each run gets a user id of its own, which nothing else on the
//! machine uses. Root ignores RLIMIT_NPROC, so the program must not run as root for the
//! process limit to hold; a user of its own makes that limit count only this run's
//! processes, and lets clings find and kill every process the run started, wherever it
//! went (a new session, a double fork), by its user id.
//!
//! "Nothing else on the machine" means on the kernel, whose count of a user's processes
//! (and pipe buffers, epoll watches) spans every container on it: containers that start
//! alike give clings the same pid, so ids cannot come from the pid alone. Each clings takes
//! a block of [`SLOTS`] ids from a digest of its pid namespace, pid and start time, which
//! two live processes never share all three of: two clings alive at once share a block
//! with odds of one in [`BLOCKS`] (5.4 million). A claim the kernel could see (a fork at
//! each run's start, with the process count's limit at two) was measured at half as slow
//! again a run on a busy machine, for odds that small.

use std::io;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

use super::procs;

/// Ids from here up are far above any system's users and below 2^31, the largest that
/// bubblewrap accepts.
const BASE: u32 = 1_800_000_000;
const SLOTS: u32 = 64;
/// Blocks of [`SLOTS`] ids between [`BASE`] and 2^31.
const BLOCKS: u32 = (i32::MAX as u32 - BASE) / SLOTS;

static IN_USE: Mutex<u64> = Mutex::new(0);
static FREED: Condvar = Condvar::new();

pub fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// How many tasks (processes and threads: RLIMIT_NPROC counts both) the current user had
/// outside clings when first asked, which count against a run's process limit when clings
/// is not root; 0 where /proc cannot tell.
pub fn others_task_count() -> u64 {
    static COUNT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| {
        procs::tasks_of_user(
            nix::unistd::getuid().as_raw(),
            nix::unistd::getpid().as_raw(),
        )
    })
}

/// clings' own threads now, which count against a run's process limit too.
pub fn own_thread_count() -> u64 {
    procs::threads_of("self").unwrap_or(1)
}

/// A user id lent to one run; back to the pool when dropped.
pub struct RunUser {
    slot: u32,
}

/// The block of this process: from its pid namespace, pid and start time (see the
/// module's comment); the pid alone where /proc cannot tell the rest.
fn first_block() -> u32 {
    static FIRST: OnceLock<u32> = OnceLock::new();
    *FIRST.get_or_init(|| {
        let namespace = std::fs::read_link("/proc/self/ns/pid")
            .map(|link| link.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        block_of(&namespace, std::process::id(), procs::start_time(&stat))
    })
}

/// The block of the process `pid` that started at `start` (clock ticks since boot) in the
/// pid namespace `namespace` (`/proc/PID/ns/pid`'s link, `pid:[INODE]`).
pub fn block_of(namespace: &str, pid: u32, start: u64) -> u32 {
    let digest = crate::util::digest::of(&[
        namespace.as_bytes(),
        &pid.to_le_bytes(),
        &start.to_le_bytes(),
    ]);
    let head = u64::from_str_radix(&digest[..16], 16).unwrap_or(u64::from(pid));
    (head % u64::from(BLOCKS)) as u32
}

impl RunUser {
    /// Waits for a free id when [`SLOTS`] runs are already under way.
    pub fn acquire() -> RunUser {
        let mut in_use = IN_USE.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(slot) = (0..SLOTS).find(|slot| *in_use & (1 << slot) == 0) {
                *in_use |= 1 << slot;
                return RunUser { slot };
            }
            in_use = FREED.wait(in_use).unwrap_or_else(|e| e.into_inner());
        }
    }

    pub fn uid(&self) -> u32 {
        BASE + first_block() * SLOTS + self.slot
    }
}

impl Drop for RunUser {
    fn drop(&mut self) {
        *IN_USE.lock().unwrap_or_else(|e| e.into_inner()) &= !(1 << self.slot);
        FREED.notify_one();
    }
}

/// Kills every process running as `uid` and waits until none is left alive; `false` when
/// some still were after `patience`. Only root may do this.
///
/// A forked child takes the user id and sends SIGKILL to every process it may signal,
/// which is exactly that user's (kill(-1) spares only the sender and init); /proc tells
/// whether any survived, for instance one that was being forked meanwhile.
pub fn sweep(uid: u32, patience: Duration) -> io::Result<bool> {
    let deadline = std::time::Instant::now() + patience;
    loop {
        if !has_processes(uid) || !procs::user_has_live_process(uid) {
            return Ok(true);
        }
        if std::time::Instant::now() >= deadline {
            return Ok(false);
        }
        kill_all_of(uid)?;
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether any process, zombies included, has `uid` as its real user id: one system call
/// (getpriority fails with ESRCH when none has), where /proc would take hundreds.
fn has_processes(uid: u32) -> bool {
    // -1 is also a valid priority: only the error says there is no process.
    nix::errno::Errno::clear();
    // SAFETY: getpriority only reads its arguments.
    let priority = unsafe { libc::getpriority(libc::PRIO_USER, uid) };
    priority != -1 || nix::errno::Errno::last() != nix::errno::Errno::ESRCH
}

fn kill_all_of(uid: u32) -> io::Result<()> {
    // SAFETY: the child makes only async-signal-safe system calls, then _exit.
    let child = unsafe { libc::fork() };
    if child < 0 {
        return Err(io::Error::last_os_error());
    }
    if child == 0 {
        // SAFETY: system calls only.
        unsafe {
            if set_uid(uid) != 0 {
                libc::_exit(2);
            }
            libc::kill(-1, libc::SIGKILL);
            libc::_exit(0)
        }
    }
    let mut status = 0;
    loop {
        // SAFETY: waiting for our own child, writing into `status`.
        if unsafe { libc::waitpid(child, &mut status, 0) } == child {
            break;
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
    if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "cannot take user id {uid} to stop its processes"
        )))
    }
}

/// setuid as a raw system call on Linux: it changes just the calling thread, the only one a
/// forked child has, without glibc's machinery for changing every thread's.
///
/// SAFETY: only for the child of a fork.
#[cfg(target_os = "linux")]
unsafe fn set_uid(uid: u32) -> libc::c_long {
    // SAFETY: setuid takes a plain integer.
    unsafe { libc::syscall(libc::SYS_setuid, uid) }
}

/// SAFETY: only for the child of a fork.
#[cfg(not(target_os = "linux"))]
unsafe fn set_uid(uid: u32) -> libc::c_long {
    // SAFETY: setuid takes a plain integer.
    unsafe { libc::setuid(uid) as libc::c_long }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests that take run users run one at a time: each expects the slots it frees to
    /// be the lowest free.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    /// A run user, failing (not waiting forever) when none is free within a few seconds.
    fn acquire() -> RunUser {
        let (sender, acquired) = std::sync::mpsc::channel();
        std::thread::spawn(move || sender.send(RunUser::acquire()));
        acquired
            .recv_timeout(Duration::from_secs(5))
            .expect("no run user is free")
    }

    #[test]
    fn run_users_are_distinct_while_held_and_below_2_pow_31() {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let first = acquire();
        let second = acquire();
        assert_ne!(first.uid(), second.uid());
        assert!(first.uid() >= BASE && second.uid() < i32::MAX as u32);
        let reused = first.uid();
        drop(first);
        assert_eq!(acquire().uid(), reused);
    }

    #[test]
    fn run_users_come_from_this_process_block_and_go_back_to_it() {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let block = BASE + first_block() * SLOTS;
        let mut users: Vec<RunUser> = (0..3).map(|_| acquire()).collect();
        let mut uids: Vec<u32> = users.iter().map(RunUser::uid).collect();
        for uid in &uids {
            assert!((block..block + 64).contains(uid), "{uid} not in {block}..");
        }
        uids.sort_unstable();
        uids.dedup();
        assert_eq!(uids.len(), 3, "{uids:?}");
        // Three slots held: the highest is at least 2. Dropped, it alone is free again.
        users.sort_by_key(|user| user.slot);
        let highest = users.pop().unwrap();
        let slot = highest.slot;
        assert!(slot >= 2);
        drop(highest);
        let in_use = *IN_USE.lock().unwrap();
        assert_eq!(in_use & (1 << slot), 0, "slot {slot} not freed");
        for user in &users {
            assert_ne!(in_use & (1 << user.slot), 0, "slot {} freed", user.slot);
        }
    }

    #[test]
    fn blocks_differ_by_namespace_pid_and_start() {
        let block = block_of("pid:[4026531836]", 28, 1000);
        assert!(block < BLOCKS);
        assert_eq!(block, block_of("pid:[4026531836]", 28, 1000));
        // Two containers that start alike: the same pid, at the same tick even.
        assert_ne!(block, block_of("pid:[4026532001]", 28, 1000));
        assert_ne!(block, block_of("pid:[4026531836]", 29, 1000));
        assert_ne!(block, block_of("pid:[4026531836]", 28, 1001));
    }

    #[test]
    fn processes_are_found_by_user() {
        let me = nix::unistd::getuid().as_raw();
        assert!(has_processes(me));
        assert!(!has_processes(4_000_000_000));
        // The one that started this process (cargo, a shell), and this one's test threads.
        assert!(others_task_count() >= 1);
        assert!(own_thread_count() >= 2);
    }

    #[test]
    fn a_sweep_kills_every_process_of_its_user() {
        // In a test process of its own: a sweep that took the user's id itself, not in a
        // forked child, would end that process with status 0, which cargo takes as a pass.
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "sandbox::user::tests::sweep_in_a_process_of_its_own",
            ])
            .args(["--include-ignored", "--test-threads", "1"])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && said.contains("test result: ok. 1 passed"),
            "{said}{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    #[test]
    #[ignore = "run in a process of its own by a_sweep_kills_every_process_of_its_user"]
    fn sweep_in_a_process_of_its_own() {
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        if !is_root() {
            crate::sandbox::skip_unless_ci(
                "sweep_in_a_process_of_its_own",
                "only root can run a process as another user",
            );
            return;
        }
        // A user of no run (clings' are below 2^31) and of nothing else.
        const USER: u32 = 4_000_000_001;
        assert!(sweep(USER, Duration::ZERO).unwrap(), "nothing to kill");
        let mut process = std::process::Command::new("sleep")
            .arg("30")
            .uid(USER)
            .gid(USER)
            .spawn()
            .unwrap();
        // Its priority -1, which getpriority also returns on failure: only errno tells.
        // SAFETY: setpriority takes plain integers.
        let reniced = unsafe { libc::setpriority(libc::PRIO_PROCESS, process.id(), -1) };
        assert_eq!(reniced, 0, "{}", std::io::Error::last_os_error());
        let swept = sweep(USER, Duration::from_secs(5));
        let ended = process.try_wait().unwrap();
        if ended.is_none() {
            let _ = process.kill();
        }
        let status = process.wait().unwrap();
        assert!(swept.unwrap(), "processes were left");
        assert!(ended.is_some(), "the process was left running");
        assert_eq!(status.signal(), Some(libc::SIGKILL));
    }
}
