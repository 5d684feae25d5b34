//! Running an untrusted student program on one input, contained: its own session and
//! process group, resource limits, a clean environment, a scratch working directory, a
//! wall-time limit and a cap on what it may print; isolated from the rest of the machine
//! with bubblewrap where that works. Every process the program started is gone, checked,
//! before a run returns.

mod capture;
mod cgroup;
mod container;
mod files;
mod helper;
mod isolation;
mod launch;
mod limits;
mod live;
mod process;
mod procs;
mod relay;
mod seccomp;
mod system_dirs;
mod tier;
mod user;
mod warm;

mod input;

use std::io::Seek;
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use anyhow::{Context, Result, bail};

pub use files::{Left, valid_name as valid_file_name};
pub use helper::main_if_helper;
pub use isolation::find_on_path;
pub use limits::{
    DEFAULT_FILE_SIZE_BYTES, Limits, Memory, MemoryEnforcement, StartFootprint,
    add_address_sanitizer_limits,
};
pub use live::{Cancelled, Grading, Interrupted, cancel, interrupt, resume};
pub use relay::{Conversation, Pair, Relay, Side, Table};
pub use system_dirs::{is_system_path, refuse_if_visible_to_programs};
pub use tier::{Found, Tier, Unisolated, start_early as start_sandboxes_early};
pub use warm::{end_all as end_warm_sandboxes, end_soon as end_warm_sandboxes_soon};

use cgroup::{Cgroups, RunCgroup};
use launch::Launch;
use tier::{Isolation, Probe};
use user::RunUser;

/// The helper enforces the wall time; clings stops the whole run this much later if the
/// helper has not.
const HELPER_GRACE: Duration = Duration::from_millis(500);

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The referee had ended the conversation, and the program went on: clings ended it.
    /// The referee's word decides.
    GameOver,
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
    /// Stopped at the wall-time limit, it was running (on a processor or waiting for one),
    /// not asleep: a loop, however little CPU time a busy machine gave it.
    pub running_when_stopped: bool,
    /// The files the job asked for, as the program left them; empty when the run was
    /// killed before the helper could look.
    pub files: Vec<(String, Left)>,
}

/// What one run executes.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub program: Program<'a>,
    /// Arguments after the program's name.
    pub args: &'a [String],
    /// What the program reads on stdin; empty when `None`.
    pub input: Option<&'a Path>,
    /// The environment besides `PATH` and `TMPDIR`, which every run gets.
    pub env: &'a [(String, String)],
    /// The run's working directory and its only writable place: a host directory the run
    /// may change (the compile step finds its source there and leaves its output), or, when
    /// `None`, a fresh empty scratch directory that is gone after the run.
    pub workdir: Option<&'a Path>,
    pub files: RunFiles<'a>,
    /// A conversation the run is in (an interactive case): its stdin, in place of
    /// `input`, and where what it writes on stdout goes besides the report.
    pub conversation: Option<(BorrowedFd<'a>, &'a Arc<Relay>)>,
    /// Folders of the host the program has besides its scratch directory (a Gomocup
    /// engine's own).
    pub folders: Option<Folders<'a>>,
}

/// A program's own folders on the host, shown to it at their host paths and nothing else
/// of theirs: `read`, its working directory, to read and not change (an engine's folder:
/// its weights, its config, the program itself), and `keep`, to change, which outlasts the
/// run (what an engine keeps from game to game). Its scratch directory is still its
/// `TMPDIR`.
#[derive(Clone, Copy, Debug)]
pub struct Folders<'a> {
    pub read: &'a Path,
    pub keep: &'a Path,
}

/// The files a run in a scratch directory is given, and those it is to leave.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunFiles<'a> {
    /// Each file's name in the working directory, and where its content is.
    pub given: &'a [(String, PathBuf)],
    /// Names of files to take from the working directory once the run is over.
    pub collect: &'a [String],
}

impl RunFiles<'_> {
    fn is_empty(&self) -> bool {
        self.given.is_empty() && self.collect.is_empty()
    }
}

#[derive(Clone, Copy, Debug)]
pub enum Program<'a> {
    /// A program clings built (the student's): a copy of it runs, so the run cannot
    /// change the build cache.
    Built(&'a Path),
    /// A command installed on the machine (the compiler), run where it is.
    Installed(&'a Path),
}

impl<'a> Job<'a> {
    /// A student's built program on one case's input, in a fresh scratch directory.
    pub fn program(
        program: &'a Path,
        input: Option<&'a Path>,
        env: &'a [(String, String)],
    ) -> Self {
        Job {
            program: Program::Built(program),
            args: &[],
            input,
            env,
            workdir: None,
            files: RunFiles::default(),
            conversation: None,
            folders: None,
        }
    }

    fn describe(&self) -> String {
        match self.program {
            Program::Built(path) | Program::Installed(path) => path.display().to_string(),
        }
    }
}

/// How runs are contained on this machine, found out once per clings process.
pub struct Sandbox {
    /// How runs are isolated; `None` for limits only. Chosen again when a remembered
    /// answer fails (see [`tier`]).
    isolation: RwLock<Option<Arc<Isolation>>>,
    /// Where each run gets a cgroup of its own (root, cgroups writable); else memory and
    /// processes are limited per process only.
    cgroups: Option<Cgroups>,
    /// Empty run cgroups for the next runs, with the memory and process limits they have.
    idle_cgroups: Mutex<Vec<(u64, u64, RunCgroup)>>,
    root: bool,
    probe: Probe,
}

/// Idle run cgroups kept at most: one per run under way is enough.
const IDLE_CGROUPS: usize = 16;

/// A run's cgroup holds more than the program: bubblewrap, the helper and its threads.
const CGROUP_EXTRA_TASKS: u64 = 6;
/// Their memory, and the page cache of the libraries they load.
const CGROUP_EXTRA_BYTES: u64 = 32 << 20;

impl Sandbox {
    /// The strongest isolation that works here (see [`tier`]), or limits only and why
    /// not (for the caller to warn), or an error when `require_isolation` and none works.
    /// `CLINGS_ISOLATION` may ask for one tier (`bubblewrap`, `container`, `none`). That
    /// bubblewrap works is remembered in `probe_dir`: finding out takes a sandbox's start.
    pub fn detect(require_isolation: bool, probe_dir: &Path) -> Result<(Sandbox, Found)> {
        let sandbox = Sandbox {
            isolation: RwLock::default(),
            cgroups: Cgroups::detect().ok(),
            idle_cgroups: Mutex::default(),
            root: user::is_root(),
            probe: Probe::new(probe_dir, require_isolation),
        };
        let found = sandbox.choose_tier()?;
        Ok((sandbox, found))
    }

    /// Starts `count` warm sandboxes in the background, for runs whose file size limit
    /// (the scratch directory's size) is `scratch_bytes`, where runs are isolated: a
    /// grading's workers find them ready once the programs are built.
    pub fn prepare(&self, count: usize, scratch_bytes: u64) {
        if let Some(Isolation::Bubblewrap(bwrap)) = self.isolation().as_deref() {
            warm::prepare(bwrap, scratch_bytes, count);
        }
    }

    /// Whether runs are isolated from the rest of the machine (else only limited).
    pub fn isolated(&self) -> bool {
        self.tier() != Tier::None
    }

    /// The tier runs are isolated by.
    pub fn tier(&self) -> Tier {
        match self.isolation().as_deref() {
            Some(Isolation::Bubblewrap(_)) => Tier::Bubblewrap,
            Some(Isolation::Container(_)) => Tier::Container,
            None => Tier::None,
        }
    }

    /// Runs `job` under `limits`. A sandbox that fails to start where bubblewrap was
    /// remembered to work has the tier chosen again, and the run goes to the new one.
    pub fn run(&self, job: &Job, limits: Limits) -> Result<Outcome> {
        let tried = self.isolation();
        match self.run_in(&tried, job, limits) {
            Err(err) if live::check().is_ok() && self.recheck_tier(&tried)? => {
                let now = self.isolation();
                self.run_in(&now, job, limits)
                    .with_context(|| format!("(after: {err:#})"))
            }
            ran => ran,
        }
    }

    /// Runs `job` in `isolation`, none for limits only.
    fn run_in(
        &self,
        isolation: &Option<Arc<Isolation>>,
        job: &Job,
        limits: Limits,
    ) -> Result<Outcome> {
        live::check()?;
        let user = self.root.then(RunUser::acquire);
        let uid = user.as_ref().map(RunUser::uid);
        // The child's stdin shares this file's offset, which tells afterwards how far it read.
        let input_file = job.input.map(input::open).transpose()?;
        let channel = match job.files.is_empty() {
            true => None,
            false => Some(files::channel(job.files.given)?),
        };
        // A student's program in a scratch directory runs in a warm sandbox,
        // where the run's cgroup holds the program alone; one with folders of the host,
        // which a warm sandbox cannot show, in a sandbox of its own.
        let warm = match (isolation.as_deref(), job.program, job.workdir, job.folders) {
            (Some(Isolation::Bubblewrap(bwrap)), Program::Built(program), None, None) => {
                Some((bwrap, program))
            }
            _ => None,
        };
        let cgroup_size = cgroup_limits(&limits, warm.is_none());
        let cgroup = self.cgroup_for(cgroup_size)?;
        let (ended, status) = match warm {
            Some((bwrap, program)) => {
                // A battle's player is stopped while the other one moves: its run's init
                // reads when, on a pipe whose other end the player's relay writes.
                let turns = match job.conversation {
                    Some((_, relay)) => relay.turn_channel()?,
                    None => None,
                };
                let null;
                let stdin = match (&input_file, job.conversation) {
                    (_, Some((stdin, _))) => stdin,
                    (Some(file), None) => file.as_fd(),
                    (None, None) => {
                        null = std::fs::File::open("/dev/null").context("cannot open /dev/null")?;
                        null.as_fd()
                    }
                };
                let orders = helper::Orders {
                    rlimits: limits.rlimits(bwrap.process_limit(limits.processes, true)),
                    uid,
                    wall_time: limits.wall_time,
                    program: isolation::PROGRAM.to_string(),
                    args: job.args.to_vec(),
                    env: program_env(job, &limits, Path::new(isolation::SCRATCH)),
                    files: match channel {
                        Some(_) => helper::FileChannel::Passed,
                        None => helper::FileChannel::None,
                    },
                    turns: match turns {
                        Some(_) => helper::FileChannel::Passed,
                        None => helper::FileChannel::None,
                    },
                    collect: job.files.collect.to_vec(),
                    confine: None,
                    memory_watch: launch::memory_watch(&limits, cgroup.is_some()),
                };
                let cgroups = cgroup.as_ref().map(RunCgroup::join_fds).unwrap_or_default();
                let fds = warm::RunFds {
                    stdin,
                    files: channel.as_ref().map(AsFd::as_fd),
                    turns: turns.as_ref().map(AsFd::as_fd),
                    cgroups: &cgroups,
                    relay: job.conversation.map(|(_, relay)| Arc::clone(relay)),
                };
                warm::run(bwrap, program, orders, fds, &limits)
                    .with_context(|| format!("cannot run {}", job.describe()))?
            }
            None => launch(
                isolation.as_deref(),
                job,
                &limits,
                uid,
                input_file.as_ref(),
                channel.as_ref(),
                cgroup.as_ref(),
            )?,
        };
        if let Some(cgroup) = &cgroup {
            anyhow::ensure!(
                cgroup.kill_all(),
                "processes of {} were still running after it ended",
                job.describe()
            );
        }
        // A run stopped by Ctrl-C has no outcome.
        live::check()?;
        // The conversation was over and the program still ran: clings ended it.
        let game_over = job
            .conversation
            .is_some_and(|(_, relay)| relay.writer_ended());
        let killed = ended.flooded || ended.timed_out.is_some() || game_over;

        let mut outcome = Outcome {
            termination: ended.exit.termination,
            stopped: None,
            stdout: ended.stdout,
            stderr: ended.stderr,
            elapsed: ended.elapsed,
            cpu_time: Some(ended.exit.cpu_time),
            peak_memory_bytes: Some(ended.exit.peak_memory_bytes),
            running_when_stopped: ended.timed_out == Some(process::Activity::Running),
            input_exhausted: match input_file {
                Some(mut file) => {
                    let length = file.metadata().map(|meta| meta.len()).unwrap_or(0);
                    file.stream_position().is_ok_and(|read| read >= length)
                }
                // No input to run out of: a loop here is not one on scanf's EOF.
                None => false,
            },
            files: Vec::new(),
        };
        // The exit status of bubblewrap, or of the helper, says less than the helper's
        // report: take its word.
        let report = helper::Report::parse(&status);
        if let Some(errno) = report.exec_error {
            bail!(
                "cannot start {}: {}",
                job.describe(),
                std::io::Error::from_raw_os_error(errno)
            );
        }
        let mut helper_timed_out = false;
        let mut helper_memory = false;
        match report.exit {
            Some(exit) => {
                outcome.termination = exit.termination;
                outcome.cpu_time = Some(exit.cpu_time);
                outcome.peak_memory_bytes = Some(exit.peak_memory_bytes);
                outcome.elapsed = exit.elapsed;
                helper_timed_out = exit.wall_timeout;
                helper_memory = exit.memory_exceeded;
                outcome.running_when_stopped |= exit.running;
                if let Some(channel) = channel.filter(|_| !job.files.collect.is_empty()) {
                    outcome.files = files::read(&channel)
                        .with_context(|| format!("cannot read what {} left", job.describe()))?;
                }
            }
            // The helper died with its run and could not tell.
            None if killed => {
                outcome.cpu_time = None;
                outcome.peak_memory_bytes = None;
            }
            None => bail!(
                "the sandbox did not run {} (it ended with {:?}): {}",
                job.describe(),
                outcome.termination,
                String::from_utf8_lossy(&outcome.stderr).trim()
            ),
        }
        outcome.stopped = if ended.flooded {
            Some(Stop::OutputLimit)
        } else if game_over {
            Some(Stop::GameOver)
        } else if ended.timed_out.is_some() || helper_timed_out {
            Some(Stop::WallTime)
        } else if helper_memory {
            Some(Stop::Memory)
        } else {
            let cgroup_memory = match cgroup.as_ref().map(RunCgroup::memory_since_begin) {
                Some(since) if since.oom_killed => CgroupMemory::OomKilled,
                Some(since) if since.limit_reached => CgroupMemory::LimitReached,
                _ => CgroupMemory::Within,
            };
            limit_that_ended(&outcome, &limits, cgroup_memory)
        };
        if let Some(cgroup) = cgroup {
            self.put_back(cgroup_size, cgroup);
        }
        drop(user);
        Ok(outcome)
    }

    /// An empty cgroup with the run's limits (`(memory, processes)`), from the idle ones or
    /// new; none where runs get no cgroup.
    fn cgroup_for(&self, (memory, processes): (u64, u64)) -> Result<Option<RunCgroup>> {
        let Some(cgroups) = &self.cgroups else {
            return Ok(None);
        };
        let mut idle = self.idle_cgroups.lock().unwrap_or_else(|e| e.into_inner());
        let mut cgroup = match idle
            .iter()
            .position(|(m, p, _)| (*m, *p) == (memory, processes))
        {
            Some(index) => idle.swap_remove(index).2,
            None => RunCgroup::create(cgroups, memory, processes)
                .context("cannot create the run's cgroup")?,
        };
        cgroup.begin_run();
        Ok(Some(cgroup))
    }

    /// Keeps the cgroup of a run that is over (emptied, checked) for a later run, if the run
    /// left nothing in it (see [`RunCgroup::reusable`]); else it is removed, and the next
    /// run gets a new one.
    fn put_back(&self, (memory, processes): (u64, u64), cgroup: RunCgroup) {
        if !cgroup.reusable() {
            return;
        }
        let mut idle = self.idle_cgroups.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < IDLE_CGROUPS {
            idle.push((memory, processes, cgroup));
        }
    }
}

/// A run in a sandbox (or a helper) of its own: the compiler, a program given a
/// directory of the host, or any run without isolation.
fn launch(
    isolation: Option<&Isolation>,
    job: &Job,
    limits: &Limits,
    uid: Option<u32>,
    input_file: Option<&std::fs::File>,
    channel: Option<&std::fs::File>,
    cgroup: Option<&RunCgroup>,
) -> Result<(launch::Ended, String)> {
    let stdin = match (input_file, job.conversation) {
        (_, Some((stdin, _))) => Stdio::from(
            stdin
                .try_clone_to_owned()
                .context("cannot pass the conversation")?,
        ),
        (Some(file), None) => Stdio::from(file.try_clone().context("cannot pass the input file")?),
        (None, None) => Stdio::null(),
    };
    let joiner = cgroup.map(RunCgroup::joiner);
    let mut launch = match isolation {
        Some(Isolation::Bubblewrap(bwrap)) => {
            Launch::isolated(bwrap, job, limits, uid, channel, joiner)?
        }
        Some(Isolation::Container(container)) => {
            Launch::direct(job, limits, uid, channel, joiner, Some(container))?
        }
        None => Launch::direct(job, limits, uid, channel, joiner, None)?,
    };
    launch
        .command
        .env_clear()
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // The helper enforces the wall time; clings stops the run itself only if it has not.
    let relay = job.conversation.map(|(_, relay)| Arc::clone(relay));
    let ended = launch
        .supervise(limits, limits.wall_time + HELPER_GRACE, uid, relay)
        .with_context(|| format!("cannot run {}", job.describe()))?;
    Ok((ended, launch.read_status()))
}

/// The program's whole environment: `PATH`, `TMPDIR` (its working directory, `workdir`)
/// and the job's, with what the limits add.
fn program_env(job: &Job, limits: &Limits, workdir: &Path) -> Vec<String> {
    let mut env = vec![
        "PATH=/usr/local/bin:/usr/bin:/bin".to_string(),
        format!("TMPDIR={}", workdir.display()),
    ];
    env.extend(
        limits
            .program_env(job.env)
            .into_iter()
            .map(|(name, value)| format!("{name}={value}")),
    );
    env
}

/// A run's cgroup limits `(memory, processes)`: the program's, and room for bubblewrap
/// and the helper when they are in the cgroup too (a run of its own, not a warm sandbox's).
fn cgroup_limits(limits: &Limits, with_sandbox: bool) -> (u64, u64) {
    let (bytes, tasks) = match with_sandbox {
        true => (CGROUP_EXTRA_BYTES, CGROUP_EXTRA_TASKS),
        false => (0, 0),
    };
    (limits.memory.bytes + bytes, limits.processes + tasks)
}

/// What a run's cgroup says of its memory.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CgroupMemory {
    Within,
    /// It came up against the limit (and may have reclaimed enough to go on).
    LimitReached,
    /// The OOM killer took one of its processes.
    OomKilled,
}

/// The CPU limit: SIGXCPU at the soft limit, or SIGKILL at the hard one for a program that
/// ignored SIGXCPU. The memory limit: any process of the run taken by the OOM killer,
/// whatever the program's own end; or a failure with a peak near it (see
/// [`Limits::near_memory_limit`]), or in a run whose cgroup reached its memory limit.
fn limit_that_ended(outcome: &Outcome, limits: &Limits, cgroup: CgroupMemory) -> Option<Stop> {
    let cpu = match outcome.termination {
        Termination::Signaled(libc::SIGXCPU) => true,
        // The hard limit, a second past the soft one: the kernel's count of the CPU time
        // may end a hair below it, never below the soft limit.
        Termination::Signaled(libc::SIGKILL) => outcome
            .cpu_time
            .is_some_and(|cpu| cpu >= Duration::from_secs(limits.cpu_seconds())),
        _ => false,
    };
    let failed = outcome.termination != Termination::Exited(0);
    let memory = cgroup == CgroupMemory::OomKilled
        || failed
            && (cgroup == CgroupMemory::LimitReached
                || outcome
                    .peak_memory_bytes
                    .is_some_and(|peak| limits.near_memory_limit(peak)));
    if cpu {
        Some(Stop::CpuTime)
    } else if memory {
        Some(Stop::Memory)
    } else {
        None
    }
}

/// For a test that lacks what it needs (root, cgroups it may create), `reason` saying
/// what: under CI (`CI=true`, where `.ci/run` provides it all) the test fails, elsewhere
/// it says on stderr, past the harness' capture, that it is skipped. A test never passes
/// by skipping in CI.
/// A new file in memory (memfd_create(2)), made by its system call: glibc has the wrapper
/// only from 2.27, and the release binaries link against glibc 2.17 (manylinux2014).
#[cfg(target_os = "linux")]
fn memory_file(name: &std::ffi::CStr, flags: libc::c_uint) -> std::io::Result<std::fs::File> {
    // SAFETY: memfd_create takes a NUL-terminated name and flags, and returns a new fd.
    let fd = unsafe { libc::syscall(libc::SYS_memfd_create, name.as_ptr(), flags) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just created and is owned by nothing else.
    Ok(unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd as libc::c_int) })
}

#[cfg(test)]
pub(crate) fn skip_unless_ci(test: &str, reason: &str) {
    use std::io::Write;
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{test}: {reason} (under CI=true a test does not pass by skipping)"
    );
    let _ = writeln!(std::io::stderr(), "{test}: skipped: {reason}");
}
