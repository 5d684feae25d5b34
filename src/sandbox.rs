//! Running a student program on one input: its own process group, a scratch directory,
//! a clean environment, a wall-time limit and a cap on what it may print.

use std::fs::File;
use std::io::{Read, Seek};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// How long the output readers may go on after the program ended: only a process that
/// escaped the process group can still hold the pipes open.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub wall_time: Duration,
    /// Per stream: past this many bytes on stdout or stderr the program is stopped.
    pub output_bytes: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
}

/// Why clings stopped the program before it ended by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    WallTime,
    OutputLimit,
}

#[derive(Debug)]
pub struct Outcome {
    pub termination: Termination,
    pub stopped: Option<Stop>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
    /// Whether the program had consumed all of its stdin: a program stopped in that state
    /// is almost always looping on a `scanf` that returns EOF.
    pub input_exhausted: bool,
}

/// Runs `program` with `input` on stdin (empty when `None`) in a fresh scratch directory.
pub fn run(
    program: &Path,
    input: Option<&Path>,
    limits: Limits,
    env: &[(String, String)],
) -> Result<Outcome> {
    let scratch = tempfile::Builder::new()
        .prefix("clings-run-")
        .tempdir()
        .context("cannot create a scratch directory for the program")?;
    // The child's stdin shares this file's offset, which tells afterwards how far it read.
    let input_file = input
        .map(|path| File::open(path).with_context(|| format!("cannot read {}", path.display())))
        .transpose()?;
    let stdin = match &input_file {
        Some(file) => Stdio::from(file.try_clone().context("cannot pass the input file")?),
        None => Stdio::null(),
    };

    let mut command = Command::new(program);
    command
        .current_dir(scratch.path())
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .envs(env.iter().map(|(key, value)| (key, value)))
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    #[cfg(target_os = "linux")]
    let clings = nix::unistd::getpid();
    // SAFETY: the closure only calls setrlimit, prctl and getppid, which are
    // async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
            // A program must not outlive clings: when watch mode quits in the middle of a
            // run, a program stuck in a loop would otherwise run on forever, orphaned.
            #[cfg(target_os = "linux")]
            {
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
                if nix::unistd::getppid() != clings {
                    return Err(std::io::Error::other(
                        "clings ended before the program started",
                    ));
                }
            }
            Ok(())
        });
    }

    let started = Instant::now();
    let mut child = command
        .spawn()
        .with_context(|| format!("cannot start {}", program.display()))?;
    let group = Pid::from_raw(child.id() as i32);
    let flooded = Arc::new(AtomicBool::new(false));
    let (drained_tx, drained_rx) = mpsc::channel();
    let stdout = Capture::start(
        child.stdout.take(),
        limits.output_bytes,
        group,
        &flooded,
        &drained_tx,
    );
    let stderr = Capture::start(
        child.stderr.take(),
        limits.output_bytes,
        group,
        &flooded,
        &drained_tx,
    );
    drop(drained_tx);

    let (status_tx, status_rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = status_tx.send(child.wait());
    });
    let (status, timed_out) = match status_rx.recv_timeout(limits.wall_time) {
        Ok(status) => (status, false),
        Err(_) => {
            kill_group(group);
            (status_rx.recv().context("lost track of the program")?, true)
        }
    };
    let elapsed = started.elapsed();
    let status = status.context("cannot wait for the program")?;
    // Whatever the program started in its group goes with it.
    kill_group(group);
    let drain_deadline = Instant::now() + DRAIN_GRACE;
    for _ in 0..2 {
        let left = drain_deadline.saturating_duration_since(Instant::now());
        if drained_rx.recv_timeout(left).is_err() {
            break;
        }
    }

    let termination = match (status.code(), status.signal()) {
        (Some(code), _) => Termination::Exited(code),
        (None, Some(signal)) => Termination::Signaled(signal),
        (None, None) => Termination::Signaled(0),
    };
    let stopped = if flooded.load(Ordering::SeqCst) {
        Some(Stop::OutputLimit)
    } else if timed_out {
        Some(Stop::WallTime)
    } else {
        None
    };
    let input_exhausted = match input_file {
        Some(mut file) => {
            let length = file.metadata().map(|meta| meta.len()).unwrap_or(0);
            file.stream_position().is_ok_and(|read| read >= length)
        }
        None => true,
    };
    Ok(Outcome {
        termination,
        stopped,
        stdout: stdout.take(),
        stderr: stderr.take(),
        elapsed,
        input_exhausted,
    })
}

fn kill_group(group: Pid) {
    // ESRCH (nothing left to kill) is the usual answer and not an error.
    let _ = killpg(group, Signal::SIGKILL);
}

/// One output stream read into memory up to a cap; past the cap the program is killed
/// and nothing more is kept.
struct Capture {
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl Capture {
    fn start(
        stream: Option<impl Read + Send + 'static>,
        cap: usize,
        group: Pid,
        flooded: &Arc<AtomicBool>,
        drained: &mpsc::Sender<()>,
    ) -> Capture {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let (sink, flooded, drained) = (Arc::clone(&bytes), Arc::clone(flooded), drained.clone());
        thread::spawn(move || {
            if let Some(mut stream) = stream {
                let mut chunk = [0u8; 16 * 1024];
                loop {
                    let read = match stream.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(read) => read,
                    };
                    let mut sink = sink.lock().expect("capture lock");
                    let room = cap.saturating_sub(sink.len());
                    sink.extend_from_slice(&chunk[..read.min(room)]);
                    if read > room {
                        flooded.store(true, Ordering::SeqCst);
                        kill_group(group);
                        break;
                    }
                }
            }
            let _ = drained.send(());
        });
        Capture { bytes }
    }

    fn take(self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes.lock().expect("capture lock"))
    }
}
