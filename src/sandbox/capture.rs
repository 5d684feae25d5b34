//! A run's stdout and stderr, each read into memory on a thread of its own (kept for the
//! next run's: see [`crate::util::parallel::on_kept_thread`]) up to a cap;
//! past the cap the run is killed and nothing more is kept.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

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
                    let room = cap.saturating_sub(sink.len());
                    let kept = &chunk[..read.min(room)];
                    sink.extend_from_slice(kept);
                    drop(sink);
                    if let Some(relay) = &relay {
                        relay.pass(kept);
                    }
                    if read > room && !relay.as_ref().is_some_and(|relay| relay.outlasts_cap()) {
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
}
