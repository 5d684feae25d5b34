//! Running an untrusted student program on one input, contained: its own session and
//! process group, resource limits, a clean environment, a scratch working directory, a
//! wall-time limit and a cap on what it may print; isolated from the rest of the machine
//! with bubblewrap where that works. Every process the program started is gone, checked,
//! before a run returns.

mod capture;
mod helper;
mod isolation;
mod launch;
mod limits;
mod live;
mod process;
mod procs;
mod seccomp;
mod user;

use std::fs::File;
use std::io::Seek;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, Result, bail};

pub use helper::main_if_helper;
pub use limits::{Limits, Memory, MemoryEnforcement};
pub use live::{Interrupted, Session, interrupt};

use crate::i18n::Lang;
use isolation::Bubblewrap;
use launch::Launch;
use user::RunUser;

/// With isolation the helper enforces the wall time; clings stops the whole sandbox this
/// much later if the helper has not.
const HELPER_GRACE: Duration = Duration::from_millis(500);

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

        let wall_limit = match &self.isolation {
            Some(_) => limits.wall_time + HELPER_GRACE,
            None => limits.wall_time,
        };
        let ended = launch
            .supervise(&limits, wall_limit, uid)
            .with_context(|| format!("cannot run {}", program.display()))?;
        // A run stopped by Ctrl-C has no outcome.
        live::check()?;
        let killed = ended.flooded || ended.timed_out;

        let mut outcome = Outcome {
            termination: ended.exit.termination,
            stopped: None,
            stdout: ended.stdout,
            stderr: ended.stderr,
            elapsed: ended.elapsed,
            cpu_time: Some(ended.exit.cpu_time),
            peak_memory_bytes: Some(ended.exit.peak_memory_bytes),
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
            // bubblewrap's exit status says less than the helper: take the helper's word.
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
                // The helper died with its sandbox and could not tell.
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
        outcome.stopped = if ended.flooded {
            Some(Stop::OutputLimit)
        } else if ended.timed_out || helper_timed_out {
            Some(Stop::WallTime)
        } else {
            limit_that_ended(&outcome, &limits)
        };
        drop(user);
        Ok(outcome)
    }
}

/// The CPU limit: SIGXCPU at the soft limit, or SIGKILL at the hard one for a program that
/// ignored SIGXCPU. The memory limit: a failure with a peak near it (see
/// [`Limits::near_memory_limit`]).
fn limit_that_ended(outcome: &Outcome, limits: &Limits) -> Option<Stop> {
    let cpu = match outcome.termination {
        Termination::Signaled(libc::SIGXCPU) => true,
        Termination::Signaled(libc::SIGKILL) => outcome
            .cpu_time
            .is_some_and(|cpu| cpu.as_secs() > limits.cpu_seconds()),
        _ => false,
    };
    let memory = outcome.termination != Termination::Exited(0)
        && outcome
            .peak_memory_bytes
            .is_some_and(|peak| limits.near_memory_limit(peak));
    if cpu {
        Some(Stop::CpuTime)
    } else if memory {
        Some(Stop::Memory)
    } else {
        None
    }
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
