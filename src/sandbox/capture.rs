//! A run's stdout and stderr, read into memory up to a cap; past the cap the run is killed
//! and nothing more is kept. Each stream is read on a thread of its own (kept for the next
//! run's: see [`crate::util::parallel::on_kept_thread`]) when what it says must be passed
//! on as it comes ([`Output`]), or by the thread that waits for the run ([`Polled`]).

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use super::process::Group;
use super::relay::Relay;

/// How long the output readers may go on after the program ended: only a process that
/// escaped the run can still hold the pipes open.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// Both streams of one run, being read.
pub struct Output {
    stdout: Capture,
    stderr: Capture,
    flooded: Arc<AtomicBool>,
    /// One message per stream that reached its end.
    drained: mpsc::Receiver<()>,
}

impl Output {
    /// Reads `stdout` and `stderr` (each at most `cap` bytes) until they end; past the
    /// cap, `group` is killed. What stdout says is also passed on through `relay`, when
    /// the run is in a conversation.
    pub fn start(
        stdout: Option<impl Read + Send + 'static>,
        stderr: Option<impl Read + Send + 'static>,
        cap: usize,
        group: &Arc<Group>,
        relay: Option<Arc<Relay>>,
    ) -> Output {
        let flooded = Arc::new(AtomicBool::new(false));
        let (drained_tx, drained) = mpsc::channel();
        if let Some(relay) = &relay {
            relay.attach(group);
        }
        Output {
            stdout: Capture::start(stdout, cap, group, &flooded, &drained_tx, relay),
            stderr: Capture::start(stderr, cap, group, &flooded, &drained_tx, None),
            flooded,
            drained,
        }
    }

    /// Once the run has ended: waits (at most [`DRAIN_GRACE`]) for both streams to reach
    /// their end, and gives what they held. Whether the run printed past the cap is known
    /// only then: a program may print its last bytes and end before they are read.
    pub fn finish(self) -> Captured {
        let deadline = Instant::now() + DRAIN_GRACE;
        for _ in 0..2 {
            let left = deadline.saturating_duration_since(Instant::now());
            if self.drained.recv_timeout(left).is_err() {
                break;
            }
        }
        Captured {
            stdout: self.stdout.take(),
            stderr: self.stderr.take(),
            flooded: self.flooded.load(Ordering::SeqCst),
        }
    }
}

/// What a run printed.
pub struct Captured {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// It printed past the cap, and was killed for it.
    pub flooded: bool,
}

struct Capture {
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl Capture {
    /// Reads `stream` on a thread of its own, passing it on through `relay` if there is one;
    /// sends on `drained` when it reaches the end.
    fn start(
        stream: Option<impl Read + Send + 'static>,
        cap: usize,
        group: &Arc<Group>,
        flooded: &Arc<AtomicBool>,
        drained: &mpsc::Sender<()>,
        relay: Option<Arc<Relay>>,
    ) -> Capture {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let (sink, group, flooded, drained) = (
            Arc::clone(&bytes),
            Arc::clone(group),
            Arc::clone(flooded),
            drained.clone(),
        );
        crate::util::parallel::on_kept_thread(move || {
            if let Some(mut stream) = stream {
                let mut chunk = [0u8; 16 * 1024];
                loop {
                    let read = match stream.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(read) => read,
                    };
                    let mut sink = sink.lock().expect("capture lock");
                    let (kept, past_cap) = keep(&mut sink, &chunk[..read], cap);
                    drop(sink);
                    if let Some(relay) = &relay {
                        relay.pass(kept);
                    }
                    if past_cap && !relay.as_ref().is_some_and(|relay| relay.outlasts_cap()) {
                        flooded.store(true, Ordering::SeqCst);
                        group.kill();
                        break;
                    }
                }
            }
            if let Some(relay) = &relay {
                relay.close();
            }
            let _ = drained.send(());
        });
        Capture { bytes }
    }

    fn take(self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes.lock().expect("capture lock"))
    }
}

/// Keeps what of `chunk` fits in `sink` under `cap`; what was kept, and whether some did
/// not fit.
fn keep<'c>(sink: &mut Vec<u8>, chunk: &'c [u8], cap: usize) -> (&'c [u8], bool) {
    let room = cap.saturating_sub(sink.len());
    let kept = &chunk[..chunk.len().min(room)];
    sink.extend_from_slice(kept);
    (kept, chunk.len() > room)
}

/// Both streams of one run, read by the thread that waits for the run, beside what it
/// waits for (a warm sandbox's report): no thread to wake for each stream of each run,
/// which on a machine whose cores are all busy is a wait of its own.
pub struct Polled<'g> {
    /// stdout and stderr, until each ends.
    streams: [Option<File>; 2],
    kept: [Vec<u8>; 2],
    cap: usize,
    group: &'g Group,
    flooded: bool,
}

impl<'g> Polled<'g> {
    /// Reads `stdout` and `stderr` (each at most `cap` bytes); past the cap, `group` is
    /// killed.
    pub fn new(stdout: OwnedFd, stderr: OwnedFd, cap: usize, group: &'g Group) -> Polled<'g> {
        let streams = [stdout, stderr].map(|stream| {
            // Only clings' end: the program's end of the pipe blocks as programs expect.
            let _ = nix::fcntl::fcntl(
                stream.as_fd(),
                nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK),
            );
            Some(File::from(stream))
        });
        Polled {
            streams,
            kept: [Vec::new(), Vec::new()],
            cap,
            group,
            flooded: false,
        }
    }

    /// Reads what the run writes until `other` can be read (or was hung up on, or cannot
    /// be waited for: its reader finds out why), at most `patience`; whether it can.
    pub fn read_until(&mut self, other: BorrowedFd, patience: Duration) -> bool {
        let deadline = Instant::now() + patience;
        loop {
            match self.wait(Some(other), deadline) {
                Waited::Other | Waited::Failed => return true,
                Waited::Over => return false,
                Waited::Streams => {}
            }
        }
    }

    /// Once the run has ended: reads both streams to their end (at most [`DRAIN_GRACE`]),
    /// and gives what they held.
    pub fn finish(mut self) -> Captured {
        let deadline = Instant::now() + DRAIN_GRACE;
        while self.streams.iter().any(Option::is_some) {
            if let Waited::Over | Waited::Failed = self.wait(None, deadline) {
                break;
            }
        }
        let [stdout, stderr] = self.kept;
        Captured {
            stdout,
            stderr,
            flooded: self.flooded,
        }
    }

    /// Waits until `other` or a stream can be read, or `deadline`; reads the streams
    /// that can.
    fn wait(&mut self, other: Option<BorrowedFd>, deadline: Instant) -> Waited {
        let left = deadline.saturating_duration_since(Instant::now());
        let timeout = PollTimeout::try_from(left.as_millis().min(i32::MAX as u128) as i32)
            .unwrap_or(PollTimeout::MAX);
        let mut polled: Vec<PollFd> = other
            .into_iter()
            .chain(self.streams.iter().flatten().map(|stream| stream.as_fd()))
            .map(|fd| PollFd::new(fd, PollFlags::POLLIN))
            .collect();
        match poll(&mut polled, timeout) {
            Ok(0) => return Waited::Over,
            Ok(_) => {}
            Err(nix::errno::Errno::EINTR) => return Waited::Streams,
            Err(_) => return Waited::Failed,
        }
        let ready = |fd: &PollFd| fd.any().unwrap_or(true);
        let other_ready = other.is_some() && ready(&polled[0]);
        let streams_ready: Vec<bool> = polled[usize::from(other.is_some())..]
            .iter()
            .map(ready)
            .collect();
        drop(polled);
        let mut streams_ready = streams_ready.into_iter();
        for index in 0..2 {
            if self.streams[index].is_some() && streams_ready.next() == Some(true) {
                self.read(index);
            }
        }
        if other_ready {
            Waited::Other
        } else {
            Waited::Streams
        }
    }

    /// Reads what stream `index` holds now; at its end, or past the cap, it is closed.
    fn read(&mut self, index: usize) {
        let Some(stream) = &mut self.streams[index] else {
            return;
        };
        let mut chunk = [0u8; 16 * 1024];
        loop {
            match stream.read(&mut chunk) {
                Ok(0) => break,
                Ok(read) => {
                    if keep(&mut self.kept[index], &chunk[..read], self.cap).1 {
                        self.flooded = true;
                        self.group.kill();
                        break;
                    }
                }
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        self.streams[index] = None;
    }
}

/// What [`Polled::wait`] saw.
enum Waited {
    /// What was waited for beside the streams can be read.
    Other,
    /// A stream was read.
    Streams,
    /// The time is over.
    Over,
    /// Nothing can be waited for.
    Failed,
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::os::unix::process::{CommandExt, ExitStatusExt};

    use std::thread;

    use nix::unistd::Pid;

    use super::*;

    /// A stream that gives its bytes only after a while, as a program still printing.
    struct Slow(Cursor<Vec<u8>>);

    impl Read for Slow {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            thread::sleep(Duration::from_millis(50));
            self.0.read(buffer)
        }
    }

    #[test]
    fn output_up_to_the_cap_is_kept_whole_and_past_it_kills_the_run() {
        for (length, flooded) in [(100, false), (101, true)] {
            // The run: a process leading a group of its own.
            let mut run = std::process::Command::new("sleep")
                .arg("30")
                .process_group(0)
                .spawn()
                .unwrap();
            let group = Arc::new(Group::new(Pid::from_raw(run.id() as i32)));
            let output = Output::start(
                Some(Slow(Cursor::new(vec![b'x'; length]))),
                Some(Cursor::new(b"error\n".to_vec())),
                100,
                &group,
                None,
            );
            let captured = output.finish();
            assert_eq!(captured.stdout, vec![b'x'; length.min(100)], "{length}");
            assert_eq!(captured.stderr, b"error\n", "{length}");
            assert_eq!(captured.flooded, flooded, "{length}");
            if !flooded {
                assert!(
                    run.try_wait().unwrap().is_none(),
                    "killed at {length} bytes"
                );
                run.kill().unwrap();
            }
            let status = run.wait().unwrap();
            assert_eq!(status.signal(), Some(libc::SIGKILL), "{length}");
        }
    }

    /// `script` run by sh as a process leading a group of its own, its stdin, stdout and
    /// stderr on pipes: the process (holding the write end of its stdin), its group, and
    /// the read ends of its stdout and stderr.
    fn script(script: &str) -> (std::process::Child, Group, OwnedFd, OwnedFd) {
        let mut run = std::process::Command::new("sh")
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let stdout = OwnedFd::from(run.stdout.take().unwrap());
        let stderr = OwnedFd::from(run.stderr.take().unwrap());
        let group = Group::new(Pid::from_raw(run.id() as i32));
        (run, group, stdout, stderr)
    }

    #[test]
    fn polled_output_up_to_the_cap_is_kept_whole_and_past_it_kills_the_run() {
        for (length, flooded) in [(100, false), (101, true)] {
            let (mut run, group, stdout, stderr) = script(&format!(
                "echo error >&2; head -c {length} /dev/zero | tr '\\0' x; exec sleep 30"
            ));
            let (silent, _speaker) = nix::unistd::pipe().unwrap();
            let mut output = Polled::new(stdout, stderr, 100, &group);
            assert!(!output.read_until(silent.as_fd(), Duration::from_millis(300)));
            if !flooded {
                assert!(
                    run.try_wait().unwrap().is_none(),
                    "killed at {length} bytes"
                );
                run.kill().unwrap();
            }
            let captured = output.finish();
            assert_eq!(captured.stdout, vec![b'x'; length.min(100)], "{length}");
            assert_eq!(captured.stderr, b"error\n", "{length}");
            assert_eq!(captured.flooded, flooded, "{length}");
            let status = run.wait().unwrap();
            assert_eq!(status.signal(), Some(libc::SIGKILL), "{length}");
        }
    }

    #[test]
    fn polled_output_waits_no_longer_once_the_other_side_speaks_and_is_read_to_its_end_after() {
        // The script prints its second line only once told to, on its stdin.
        let (mut run, group, stdout, stderr) =
            script("echo first; read go; echo second; echo late >&2");
        let (said, speaker) = nix::unistd::pipe().unwrap();
        nix::unistd::write(&speaker, b"r").unwrap();
        let mut output = Polled::new(stdout, stderr, 100, &group);
        let started = Instant::now();
        assert!(output.read_until(said.as_fd(), Duration::from_secs(10)));
        assert!(started.elapsed() < Duration::from_secs(5));
        let mut go = run.stdin.take().unwrap();
        std::io::Write::write_all(&mut go, b"go\n").unwrap();
        drop(go);
        // As in a warm sandbox, where the report comes once the run's processes are gone.
        assert!(run.wait().unwrap().success());
        let captured = output.finish();
        assert_eq!(captured.stdout, b"first\nsecond\n");
        assert_eq!(captured.stderr, b"late\n");
        assert!(!captured.flooded);
    }
}
